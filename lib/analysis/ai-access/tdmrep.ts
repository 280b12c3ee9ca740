// The TDM Reservation Protocol (W3C Community Group final report): a rightsholder's text-and-data-mining opt-out
// (the EU CDSM Directive's Article 4 reservation) declared in /.well-known/tdmrep.json, in `tdm-reservation` and
// `tdm-policy` response headers, and in HTML meta tags. Later techniques supersede earlier ones: the file, then
// the header, then the page's metadata; a technique that says nothing resets nothing.
import { matchesPattern, normalisePath } from "@/lib/seo/robots";

export type TdmReservation = 0 | 1;

export interface TdmRule {
  location: string;
  /** Null: the rule's value is a protocol error, which leaves the reservation unset for the paths it matches. */
  reservation: TdmReservation | null;
  policy: string | null;
}

export interface TdmDeclaration {
  reservation: TdmReservation | null;
  policy: string | null;
}

export type TdmSource = "tdmrep.json" | "header" | "meta";

/** Rules read at most; a larger file is read up to here and says so. */
const MAX_RULES = 1000;

/** `1` or `0` (a number, or a string holding one); anything else is a protocol error: unset. */
function reservationOf(value: unknown): TdmReservation | null {
  if (value === 1 || value === "1") return 1;
  if (value === 0 || value === "0") return 0;
  return null;
}

/** A TDM policy is a URL; a relative or malformed one is not usable. */
function policyOf(value: unknown): string | null {
  if (typeof value !== "string" || value.trim() === "") return null;
  try {
    const url = new URL(value.trim());
    return url.protocol === "https:" || url.protocol === "http:" ? url.href : null;
  } catch {
    return null;
  }
}

/** Reads /.well-known/tdmrep.json: a JSON array of `{ location, tdm-reservation, tdm-policy? }` rules. */
export function parseTdmrepFile(text: string): { rules: TdmRule[]; issues: string[] } {
  let json: unknown;
  try {
    json = JSON.parse(text.replace(/^\uFEFF/, ""));
  } catch {
    return { rules: [], issues: ["not JSON"] };
  }
  if (!Array.isArray(json)) {
    return {
      rules: [],
      issues: ["not a JSON array of rules (the brackets are required even around one rule)"],
    };
  }
  const rules: TdmRule[] = [];
  const issues: string[] = [];
  for (const [i, entry] of json.slice(0, MAX_RULES).entries()) {
    const n = i + 1;
    if (!entry || typeof entry !== "object" || Array.isArray(entry)) {
      issues.push(`rule ${n}: not an object`);
      continue;
    }
    const rule = entry as Record<string, unknown>;
    const location = rule.location;
    if (typeof location !== "string" || location.trim() === "") {
      issues.push(`rule ${n}: no location`);
      continue;
    }
    const reservation = reservationOf(rule["tdm-reservation"]);
    if (!("tdm-reservation" in rule))
      issues.push(`rule ${n} (${location}): no tdm-reservation, read as unset`);
    else if (reservation === null) {
      issues.push(
        `rule ${n} (${location}): tdm-reservation ${JSON.stringify(rule["tdm-reservation"])} is neither 1 nor 0, read as unset`,
      );
    } else if (typeof rule["tdm-reservation"] === "string") {
      issues.push(
        `rule ${n} (${location}): tdm-reservation is written as a string; the protocol's value is the number`,
      );
    }
    const policy = policyOf(rule["tdm-policy"]);
    if (rule["tdm-policy"] !== undefined && policy === null) {
      issues.push(`rule ${n} (${location}): tdm-policy is not an absolute http(s) URL`);
    }
    rules.push({ location: location.trim(), reservation, policy });
  }
  if (json.length > MAX_RULES) issues.push(`${json.length} rules; the first ${MAX_RULES} were read`);
  return { rules, issues };
}

/**
 * The rule that decides `path`: the first whose location matches it (the protocol's "most specific match is the
 * first in sequence"), matched as robots.txt paths are (`*` any run of characters, a final `$` the end,
 * otherwise a prefix; percent-escapes of unreserved characters decoded on both sides); null when none does.
 */
export function tdmRuleFor(rules: readonly TdmRule[], path: string): TdmRule | null {
  const target = normalisePath(path);
  return rules.find((r) => matchesPattern(normalisePath(r.location), target)) ?? null;
}

/** The `tdm-reservation` and `tdm-policy` response headers; null when the response has neither. */
export function readTdmHeaders(headers: Record<string, string[] | undefined>): TdmDeclaration | null {
  const reservation = headers["tdm-reservation"];
  const policy = headers["tdm-policy"];
  if (!reservation?.length && !policy?.length) return null;
  return { reservation: reservationOf(reservation?.[0]?.trim()), policy: policyOf(policy?.[0]) };
}

/** `<meta name="tdm-reservation" content="1">` and `<meta name="tdm-policy" content="…">`; null when neither. */
export function readTdmMeta(metas: readonly { name: string; content: string }[]): TdmDeclaration | null {
  const find = (name: string) => metas.find((m) => m.name.trim().toLowerCase() === name)?.content;
  const reservation = find("tdm-reservation");
  const policy = find("tdm-policy");
  if (reservation === undefined && policy === undefined) return null;
  return { reservation: reservationOf(reservation?.trim()), policy: policyOf(policy) };
}

/**
 * What holds for a page, in the protocol's order of processing: the file's rule, then the header, then the
 * page's metadata, each superseding what it states and leaving the rest. The policy counts only where TDM rights
 * are reserved. `source` names the technique the reservation came from.
 */
export function resolveTdm(
  rule: TdmRule | null,
  header: TdmDeclaration | null,
  meta: TdmDeclaration | null,
): { reservation: TdmReservation | null; policy: string | null; source: TdmSource | null } {
  let reservation: TdmReservation | null = rule?.reservation ?? null;
  let source: TdmSource | null = reservation === null ? null : "tdmrep.json";
  let policy = rule?.policy ?? null;
  for (const [declaration, name] of [
    [header, "header"],
    [meta, "meta"],
  ] as const) {
    if (!declaration) continue;
    if (declaration.reservation !== null) {
      reservation = declaration.reservation;
      source = name;
    }
    if (declaration.policy !== null) policy = declaration.policy;
  }
  return { reservation, policy: reservation === 1 ? policy : null, source };
}
