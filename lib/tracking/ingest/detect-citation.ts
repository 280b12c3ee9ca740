import { engineFromReferrer, engineFromUtm } from "../catalog/ai-referrers";
import type { AiEngine } from "../catalog/bots";
import { classifyUserAgent, type UserAgentClass } from "../catalog/classify";
import type { IpVerification } from "../catalog/ip-ranges/verify";
import { LruCache } from "../lru-cache";

type CitationReason = "user_fetch" | "referral" | "utm";

export interface Citation {
  engine: AiEngine;
  reason: CitationReason;
}

export interface VisitForCitation {
  /** The request path, query string included (that is where utm_source lives). */
  path: string;
  userAgent?: string | null;
  referrer?: string | null;
  /** Pass it when already computed, to skip classifying again. */
  classification?: UserAgentClass;
  /** When given and "unverified", a user-fetch claim from outside the operator's ranges is not believed. */
  ipVerification?: IpVerification;
}

/**
 * Whether a visit cites the page, and for which engine: an AI engine's user-triggered fetcher reading it
 * (someone asked that engine a question), or a person arriving from an AI engine's answer (its referrer, or
 * failing that a utm_source the engine put on the link). Crawls for training or indexing are not citations,
 * and neither is any other bot, whatever its referrer says.
 */
export function detectCitation(visit: VisitForCitation): Citation | null {
  return citationOf(
    visit.path,
    visit.referrer,
    visit.classification ?? classifyUserAgent(visit.userAgent),
    visit.ipVerification,
  );
}

/** detectCitation of a classified visit, from its fields as they are (ingest calls it once per event). */
export function citationOf(
  path: string,
  referrer: string | null | undefined,
  classification: UserAgentClass,
  ipVerification: IpVerification | undefined,
): Citation | null {
  if (classification.kind === "bot") {
    const { bot } = classification;
    // A user-triggered fetch (someone asked the assistant a question), counted under the assistant's engine.
    if ((bot.purpose !== "ai_user_fetch" && bot.purpose !== "ai_assistant") || !bot.engine) return null;
    if (ipVerification === "unverified") return null;
    return { engine: bot.engine, reason: "user_fetch" };
  }
  const referred = engineOfReferrer(referrer);
  if (referred) return { engine: referred, reason: "referral" };
  const tagged = engineFromUtm(path);
  if (tagged) return { engine: tagged, reason: "utm" };
  return null;
}

/**
 * Referrers repeat heavily (a handful of engines' and search engines' addresses), and reading one parses it as a
 * URL: each distinct referrer up to REFERRER_CACHED_LENGTH characters is read once, longer ones every time (so
 * the cache's memory stays bounded).
 */
const REFERRER_CACHED_LENGTH = 256;
const referrerEngines = new LruCache<string, AiEngine | null>(5_000);

function engineOfReferrer(referrer: string | null | undefined): AiEngine | null {
  if (!referrer || referrer.length > REFERRER_CACHED_LENGTH) return engineFromReferrer(referrer);
  const cached = referrerEngines.get(referrer);
  if (cached !== undefined) return cached;
  const engine = engineFromReferrer(referrer);
  referrerEngines.set(referrer, engine);
  return engine;
}
