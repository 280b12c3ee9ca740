import { classifyBotNamed, classifyUserAgent, type UserAgentClass } from "../catalog/classify";
import { type IpVerification, verifyBotIp } from "../catalog/ip-ranges/verify";
import { type Citation, citationOf } from "./detect-citation";

export interface VisitInput {
  path: string;
  userAgent?: string | null;
  ip?: string | null;
  referrer?: string | null;
}

export interface VisitAnalysis {
  classification: UserAgentClass;
  /** Whether a bot's address belongs to its operator; "unknown" for humans. */
  verification: IpVerification;
  citation: Citation | null;
}

/**
 * Everything the ingest path needs to know about one visit, computed once: who made it, whether a bot is who
 * it claims to be, and whether it cites the page.
 *
 * `trustIpVerification` decides whether an "unverified" user fetcher still counts as a citation. Off in ingest: a
 * list fetched yesterday can miss a range the operator added today, and a genuine fetch is a citation lost.
 * `botName`: the bot the visit is, when something other than its user agent names it (a signature).
 */
export function analyzeVisit(
  visit: VisitInput,
  options?: { trustIpVerification?: boolean; botName?: string },
): VisitAnalysis {
  const classification =
    (options?.botName ? classifyBotNamed(options.botName) : null) ?? classifyUserAgent(visit.userAgent);
  const verification =
    classification.kind === "bot" ? verifyBotIp(classification.bot.name, visit.ip) : "unknown";
  // Positional, not detectCitation's object: this runs once per ingested event.
  const citation = citationOf(
    visit.path,
    visit.referrer,
    classification,
    options?.trustIpVerification ? verification : undefined,
  );
  return { classification, verification, citation };
}
