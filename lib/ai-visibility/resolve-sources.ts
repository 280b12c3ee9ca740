import type { GuardedFetch } from "@/lib/fetch/types";
import type { EngineName, EngineSource } from "@/lib/providers/engine-types";
import { GEMINI_REDIRECT_HOST } from "@/lib/providers/gemini/config";
import { findHostname, findRegistrableDomain, parseDomainTitle } from "./domains";

export interface ResolvedSource {
  /** The page's real URL; for a Gemini link that could not be resolved, the redirect link itself. */
  url: string;
  title: string;
  /** Registrable domain of the page, or null when it cannot be told. */
  domain: string | null;
}

/**
 * Gives each source its registrable domain. Gemini's grounding links point at a Google redirect service: each
 * is asked once through the guarded fetcher with redirects off and its `Location` read; when that fails, the
 * chunk title (Gemini titles these chunks with the site's domain) gives the domain and the link stays as it is.
 */
export async function resolveSources(
  engine: EngineName,
  sources: readonly EngineSource[],
  fetch: GuardedFetch,
  signal?: AbortSignal,
): Promise<ResolvedSource[]> {
  return Promise.all(
    sources.map(async (source) => {
      if (engine === "Gemini" && findHostname(source.url) === GEMINI_REDIRECT_HOST) {
        const target = await readRedirectTarget(source.url, fetch, signal);
        if (target) return { url: target, title: source.title, domain: findRegistrableDomain(target) };
        return { url: source.url, title: source.title, domain: parseDomainTitle(source.title) };
      }
      return { url: source.url, title: source.title, domain: findRegistrableDomain(source.url) };
    }),
  );
}

async function readRedirectTarget(
  url: string,
  fetch: GuardedFetch,
  signal?: AbortSignal,
): Promise<string | null> {
  try {
    const res = await fetch(url, {
      method: "GET",
      redirect: "manual",
      signal,
      timeoutMs: 5_000,
      maxBytes: 64 * 1024,
    });
    const location = res.headers.location?.[0];
    if (res.status < 300 || res.status >= 400 || !location) return null;
    const target = new URL(location, url);
    return target.protocol === "http:" || target.protocol === "https:" ? target.href : null;
  } catch {
    return null;
  }
}
