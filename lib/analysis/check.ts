import { checkInfo } from "./check-catalog";
import { type Check, type CheckCategory, type CheckStatus, type HeaderMap, MAX_EVIDENCE } from "./types";

/** Builds a check with evidence capped so one noisy page cannot bloat a job result. */
export function createCheck(
  id: string,
  category: CheckCategory,
  status: CheckStatus,
  message: string,
  evidence: string[] = [],
): Check {
  const capped = evidence.slice(0, MAX_EVIDENCE).map((e) => clip(e, 300));
  if (evidence.length > MAX_EVIDENCE) capped.push(`… and ${evidence.length - MAX_EVIDENCE} more`);
  return { id, category, status, message, evidence: capped, ...checkInfo(id) };
}

/** Shortens text for evidence and messages, cutting at a word boundary when one is near. */
export function clip(text: string, max = 120): string {
  const flat = text.replace(/\s+/g, " ").trim();
  if (flat.length <= max) return flat;
  const cut = flat.slice(0, max - 1);
  const space = cut.lastIndexOf(" ");
  return `${space > max * 0.6 ? cut.slice(0, space) : cut}…`;
}

/** Every value of a response header (names are lower-cased by the fetcher). */
export function headerValues(headers: HeaderMap, name: string): string[] {
  return headers[name.toLowerCase()] ?? [];
}

const STATUS_POINTS: Record<CheckStatus, number> = { pass: 1, warn: 0.5, fail: 0 };

/** 0–100: each check weighs the same; a warning counts half. Empty input scores 100 (nothing wrong found). */
export function scoreChecks(checks: readonly Check[]): number {
  if (checks.length === 0) return 100;
  const points = checks.reduce((sum, c) => sum + STATUS_POINTS[c.status], 0);
  return Math.round((points / checks.length) * 100);
}

export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}
