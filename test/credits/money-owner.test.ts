// Money moves in one module: lib/credits. This test reads the product's sources and fails when a file elsewhere
// writes the credit ledger or an account's balance, or builds the credits.low event itself.
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "../..");
const OWNER = "lib/credits/";
/** Where the event's name may appear as a value: the list of event types endpoints subscribe to. */
const EVENT_NAMES = "lib/webhooks/events.ts";

function sources(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir)).flatMap((name) => {
    const rel = `${dir}/${name}`;
    if (statSync(path.join(ROOT, rel)).isDirectory()) return sources(rel);
    return /\.(ts|tsx|mjs)$/.test(name) && !/\.test\.tsx?$/.test(name) ? [rel] : [];
  });
}

/** Writes of the ledger or the balance, as SQL text or Drizzle calls. */
const MONEY_WRITES: [string, RegExp][] = [
  ["SQL insert into credit_ledger", /insert\s+into\s+credit_ledger\b/i],
  ["SQL update or delete of credit_ledger", /(update|delete\s+from)\s+credit_ledger\b/i],
  ["SQL assignment of credit_balance or total_used", /\b(credit_balance|total_used)\s*=\s*(?!=)/i],
  ["Drizzle write of creditLedger", /\.(insert|update|delete)\(\s*creditLedger\s*\)/],
  ["Drizzle set of creditBalance or totalUsed", /\.set\(\s*\{[^}]*\b(creditBalance|totalUsed)\s*:/s],
];
const CREDITS_LOW = /["']credits\.low["']/;

const files = ["app", "lib", "components", "scripts"].flatMap(sources);
const text = new Map(files.map((f) => [f, readFileSync(path.join(ROOT, f), "utf8")]));

describe("money in one place", () => {
  test("the patterns find the writes where they live (so they can find one elsewhere)", () => {
    const ledger = text.get("lib/credits/ledger.ts")!;
    for (const [what, re] of MONEY_WRITES.slice(0, 1).concat(MONEY_WRITES.slice(2, 3))) {
      expect(re.test(ledger), what).toBe(true);
    }
    expect(CREDITS_LOW.test(ledger)).toBe(true);
    expect(MONEY_WRITES[3]![1].test("tx.insert(creditLedger).values({})")).toBe(true);
    expect(MONEY_WRITES[4]![1].test("tx.update(accounts).set({ creditBalance: sql`x` })")).toBe(true);
    expect(MONEY_WRITES[1]![1].test("delete from credit_ledger where id = 1")).toBe(true);
  });

  test("no file outside lib/credits writes the credit ledger or a balance", () => {
    const found = [...text]
      .filter(([f]) => !f.startsWith(OWNER))
      .flatMap(([f, src]) => MONEY_WRITES.filter(([, re]) => re.test(src)).map(([what]) => `${f}: ${what}`));
    expect(found).toEqual([]);
  });

  test("credits.low is built in lib/credits only", () => {
    const found = [...text]
      .filter(([f, src]) => !f.startsWith(OWNER) && f !== EVENT_NAMES && CREDITS_LOW.test(src))
      .map(([f]) => f);
    expect(found).toEqual([]);
  });
});
