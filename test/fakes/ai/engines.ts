import { FetchError } from "@/lib/fetch/errors";
import { createGuardedFetch } from "@/lib/fetch/guarded-fetch";
import type { GuardedFetch } from "@/lib/fetch/types";
import type { Env } from "@/lib/providers/engine-types";
import { FAKE_ANTHROPIC_KEY, startFakeAnthropic } from "./anthropic";
import { FAKE_GEMINI_KEY, type RedirectTable, startFakeGemini } from "./gemini";
import { FAKE_OPENAI_KEY, startFakeOpenAi } from "./openai";
import { FAKE_PERPLEXITY_KEY, startFakePerplexity } from "./perplexity";
import type { FakeProvider } from "./server";

export interface FakeEngines {
  env: Env;
  openai: FakeProvider;
  anthropic: FakeProvider;
  gemini: FakeProvider;
  perplexity: FakeProvider;
  /** Grounding link id → the page it stands for. */
  redirects: RedirectTable;
  close(): Promise<void>;
}

/** The four fake providers on 127.0.0.1 and the environment that points the adapters at them. */
export async function startFakeEngines(): Promise<FakeEngines> {
  const redirects: RedirectTable = new Map();
  const [openai, anthropic, gemini, perplexity] = await Promise.all([
    startFakeOpenAi(),
    startFakeAnthropic(),
    startFakeGemini(redirects),
    startFakePerplexity(),
  ]);
  return {
    env: {
      OPENAI_API_KEY: FAKE_OPENAI_KEY,
      OPENAI_BASE_URL: openai.baseUrl,
      ANTHROPIC_API_KEY: FAKE_ANTHROPIC_KEY,
      ANTHROPIC_BASE_URL: anthropic.baseUrl,
      GEMINI_API_KEY: FAKE_GEMINI_KEY,
      GEMINI_BASE_URL: gemini.baseUrl,
      PERPLEXITY_API_KEY: FAKE_PERPLEXITY_KEY,
      PERPLEXITY_BASE_URL: perplexity.baseUrl,
    },
    openai,
    anthropic,
    gemini,
    perplexity,
    redirects,
    close: async () => {
      await Promise.all([openai.close(), anthropic.close(), gemini.close(), perplexity.close()]);
    },
  };
}

/**
 * A guarded fetcher whose public hosts are served by local servers: `routes` maps a host name to a
 * http://127.0.0.1:PORT origin. Any other host fails as unresolvable, so nothing leaves the machine.
 */
export function createRoutedFetch(routes: Record<string, string>): GuardedFetch {
  const local = createGuardedFetch({ allowPrivateTargets: "loopback" });
  return (url, options) => {
    const target = new URL(url);
    const origin = routes[target.hostname];
    if (!origin) {
      return Promise.reject(
        new FetchError("DNS_ERROR", `The host name ${target.hostname} could not be resolved.`, {
          hostname: target.hostname,
        }),
      );
    }
    return local(`${origin}${target.pathname}${target.search}`, options);
  };
}
