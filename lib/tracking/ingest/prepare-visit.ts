import type { NewVisit } from "@/lib/db/schema";
import { analyzeVisit } from "./analyze-visit";
import { awaitingSignature, judgeSignature, type PendingSignature, signingAgentOf } from "./signature-judge";

export interface VisitFields {
  occurredAt: Date;
  path: string;
  userAgent: string;
  ip?: string | null;
  referrer?: string | null;
  status?: number | null;
  /** The request's Web Bot Auth headers, as received (raw values), when it carried a signature. */
  signature?: string | null;
  signatureInput?: string | null;
  signatureAgent?: string | null;
  /** The requested host the signature's @authority covers (default: the domain). */
  host?: string | null;
  method?: string | null;
}

/**
 * The row to store for one visit, or null for a human visit that no AI engine referred: those are not bot
 * visits and not citations, so we keep nothing about them (not even the address). Humans' addresses are
 * dropped from stored citations too.
 */
export function prepareVisit(
  domainId: string,
  visit: VisitFields,
  eventKey: string,
  options: {
    isDemo?: boolean;
    /** The signed request's host when the visit has none of its own (the domain). */
    domain?: string;
    /** Collects the signed visits whose agent's keys are not at hand yet (settled after the batch is stored). */
    signatures?: PendingSignature[];
  } = {},
): NewVisit | null {
  let analysis = analyzeVisit(visit);
  const signed =
    visit.signature && visit.signatureInput
      ? {
          signature: visit.signature,
          signatureInput: visit.signatureInput,
          signatureAgent: visit.signatureAgent,
          authority: visit.host || options.domain || "",
          path: visit.path,
          method: visit.method,
          at: visit.occurredAt,
        }
      : null;
  if (signed && analysis.classification.kind === "human") {
    // A browser's user agent on a signed request: an agent browsing for its user, named by its signature alone.
    const agent = signingAgentOf(signed);
    if (agent) analysis = analyzeVisit(visit, { botName: agent });
  }
  const { classification, verification, citation } = analysis;
  const bot = classification.kind === "bot" ? classification.bot : null;
  if (!bot && !citation) return null;
  const row: NewVisit = {
    domainId,
    occurredAt: visit.occurredAt,
    path: clean(visit.path) ?? "",
    userAgent: clean(visit.userAgent) ?? "",
    ip: bot ? (visit.ip ?? null) : null,
    referrer: clean(visit.referrer),
    status: visit.status ?? null,
    botName: bot?.name ?? null,
    botPurpose: bot?.purpose ?? null,
    isAiBot: bot?.isAIBot ?? false,
    verification,
    verificationMethod: verification === "unknown" ? null : "ip",
    citationEngine: citation?.engine ?? null,
    citationReason: citation?.reason ?? null,
    eventKey,
    isDemo: options.isDemo ?? false,
  };
  // Only a signed request pays for this; a signature decides over the address.
  if (bot && signed) {
    const judged = judgeSignature(bot.name, signed);
    if (judged) {
      row.verification = judged.verification;
      row.verificationMethod = judged.method;
      if (judged.pending) {
        awaitingSignature.add(row);
        options.signatures?.push({ row, check: judged.pending, at: visit.occurredAt });
      }
    }
  }
  return row;
}

// Postgres text cannot hold NUL; a visit is still worth keeping without it.
// biome-ignore lint/suspicious/noControlCharactersInRegex: that is the point
const NUL = /\u0000/g;
function clean(v: string | null | undefined): string | null {
  if (v == null) return null;
  return v.indexOf("\u0000") === -1 ? v : v.replace(NUL, "");
}

/** The path a page is counted under in topPages: the query string (tracking tags, cache busters) dropped. */
export function pageOf(path: string): string {
  const q = path.indexOf("?");
  return q === -1 ? path : path.slice(0, q);
}

/**
 * A Postgres array literal of `values` (NULL for null), for one `unnest` parameter: a column of a batch travels
 * as one text parameter, whatever the batch's size, and Postgres parses it without a JSON detour.
 */
export function pgArrayLiteral(values: readonly (string | number | boolean | null | undefined)[]): string {
  // Most columns are all plain text (no quote, no backslash, no null) or all small whole numbers: one native join
  // writes those, without a string per value.
  const first = values[0];
  let i = 0;
  if (typeof first === "string") {
    for (; i < values.length; i++) {
      const v = values[i];
      if (typeof v !== "string" || v.indexOf('"') !== -1 || v.indexOf("\\") !== -1) break;
    }
    if (i === values.length) return `{"${values.join('","')}"}`;
  } else if (typeof first === "number") {
    for (; i < values.length; i++) {
      const v = values[i];
      if (typeof v !== "number" || (v | 0) !== v) break;
    }
    if (i === values.length) return `{${values.join(",")}}`;
  }
  const parts = new Array<string>(values.length);
  for (i = 0; i < values.length; i++) {
    const v = values[i];
    if (v == null) parts[i] = "NULL";
    else if (typeof v === "string")
      // Most values hold neither a quote nor a backslash: two scans are cheaper than the regex then.
      parts[i] =
        v.indexOf('"') === -1 && v.indexOf("\\") === -1 ? `"${v}"` : `"${v.replace(ARRAY_QUOTED, "\\$&")}"`;
    else if (typeof v === "number" && v > SMALL_INTEGER && v < 1e15 && Number.isInteger(v))
      parts[i] = wholeText(v);
    else parts[i] = String(v);
  }
  return `{${parts.join(",")}}`;
}
const ARRAY_QUOTED = /["\\]/g;
/** Above this a whole number is a heap number, which String() writes through the double formatter. */
const SMALL_INTEGER = 2 ** 31 - 1;

/**
 * `String(n)` of a whole number from 2^31 to 10^15 (a time in milliseconds, the one such column of a batch) as two
 * small integers, the millions and the six digits below them: a third of the cost of formatting the double. Both
 * parts are exact: `%` of integers below 2^53 is, and so is dividing the multiple of 10^6 that remains.
 */
function wholeText(n: number): string {
  const low = n % 1_000_000;
  return String((n - low) / 1_000_000) + String(low + 1_000_000).slice(1);
}
