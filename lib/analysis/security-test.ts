import { clip, createCheck } from "./check";
import type { Check, CheckStatus } from "./types";

export interface SecurityTest extends Check {
  /** Points this test adds to (or removes from) the baseline of 100. */
  scoreModifier: number;
  /** The MDN HTTP Observatory's result name (e.g. "csp-implemented-with-no-unsafe"); null for our own tests. */
  result: string | null;
}

export function createSecurityTest(
  id: string,
  status: CheckStatus,
  scoreModifier: number,
  message: string,
  evidence: string[],
) {
  return { ...createCheck(`security.${id}`, "security", status, message, evidence), scoreModifier };
}

export function showHeader(name: string, values: string[]): string[] {
  return values.length ? values.map((v) => `${name}: ${clip(v, 250)}`) : [`${name}: (absent)`];
}
