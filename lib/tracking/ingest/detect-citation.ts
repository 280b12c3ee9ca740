import { engineFromReferrer, engineFromUtm } from "../catalog/ai-referrers";
import type { AiEngine } from "../catalog/bots";
import { classifyUserAgent, type UserAgentClass } from "../catalog/classify";
import type { IpVerification } from "../catalog/ip-ranges/verify";

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
  const classification = visit.classification ?? classifyUserAgent(visit.userAgent);
  if (classification.kind === "bot") {
    const { bot } = classification;
    // A user-triggered fetch (someone asked the assistant a question), counted under the assistant's engine.
    if ((bot.purpose !== "ai_user_fetch" && bot.purpose !== "ai_assistant") || !bot.engine) return null;
    if (visit.ipVerification === "unverified") return null;
    return { engine: bot.engine, reason: "user_fetch" };
  }
  const referred = engineFromReferrer(visit.referrer);
  if (referred) return { engine: referred, reason: "referral" };
  const tagged = engineFromUtm(visit.path);
  if (tagged) return { engine: tagged, reason: "utm" };
  return null;
}
