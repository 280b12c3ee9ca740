import { requireRegisteredDomain } from "@/lib/accounts/domains";
import type { DbOrTx } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { guardedFetch } from "@/lib/fetch";
import type { GuardedFetch } from "@/lib/fetch/types";
import { runKeywordResearch } from "@/lib/keywords";
import type { PromptSuggestions } from "./schemas";

const SUGGESTED_PROMPTS = 10;

/** A keyphrase as a question people ask an AI engine when they look for what the site offers. */
function keyphrasePrompt(phrase: string): string {
  return `What are the best options for ${phrase}, and which would you recommend?`;
}

/**
 * Ten prompts to track, from the site's own content: the questions its pages ask (as written there), then its
 * strongest keyphrases as a recommendation question each. Reads the site through the guarded fetcher with the
 * keyword research's extraction (no keyword data provider is called, nothing is charged).
 */
export async function suggestPrompts(
  db: DbOrTx,
  accountId: string,
  domain: string,
  opts: { fetch?: GuardedFetch; signal?: AbortSignal } = {},
): Promise<PromptSuggestions> {
  const row = await requireRegisteredDomain(db, accountId, domain);
  let research: Awaited<ReturnType<typeof runKeywordResearch>>;
  try {
    research = await runKeywordResearch(
      { url: `https://${row.hostname}/` },
      { signal: opts.signal ?? AbortSignal.timeout(60_000), fetch: opts.fetch ?? guardedFetch, env: {} },
    );
  } catch (err) {
    throw new AppError(
      "VALIDATION_ERROR",
      `The site ${row.hostname} could not be read to suggest prompts (${err instanceof Error ? err.message : "fetch failed"}). Write the prompts yourself, or try again later.`,
      { field: "domain", reason: "site_unreadable" },
    );
  }
  if (research.mode !== "url") throw new Error("keyword research answered seeds for a URL");
  const out: PromptSuggestions["prompts"] = [];
  const seen = new Set<string>();
  const add = (prompt: string, source: "question" | "keyphrase") => {
    const text = prompt.trim().replace(/\s+/g, " ");
    const key = text.toLowerCase();
    if (text.length < 8 || text.length > 2000 || seen.has(key) || out.length >= SUGGESTED_PROMPTS) return;
    seen.add(key);
    out.push({ prompt: text, source });
  };
  // Questions first, at most half the list, so that the keyphrases' topics are represented too.
  for (const q of research.questions.slice(0, SUGGESTED_PROMPTS / 2)) add(q.question, "question");
  for (const k of research.keyphrases) add(keyphrasePrompt(k.phrase), "keyphrase");
  for (const q of research.questions) add(q.question, "question");
  return { domain: row.hostname, prompts: out };
}
