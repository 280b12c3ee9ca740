import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { UNAVAILABLE_REASON_TEXT } from "@/lib/errors/unavailable";
import { pricingText, TOOL_NAMES, TOOLS } from "@/lib/tools/catalog";

// Customers never read the operator's settings: no environment variable, no shell command, no README.
const ROOT = path.resolve(import.meta.dirname, "../..");
const SETTINGS = [
  ...readFileSync(path.join(ROOT, ".env.example"), "utf8").matchAll(/^#? ?([A-Z][A-Z0-9_]+)=/gm),
].map((m) => m[1]!);
const OPERATOR_WORDS = /\bREADME\b|npm run|npx |openssl|\bCHROME_AVAILABLE\b/;

function leaks(text: string): string[] {
  const found = SETTINGS.filter((name) => new RegExp(`\\b${name}\\b`).test(text));
  const word = text.match(OPERATOR_WORDS);
  return word ? [...found, word[0]] : found;
}

test("the settings list is read (a test that finds nothing would prove nothing)", () => {
  expect(SETTINGS).toEqual(
    expect.arrayContaining(["OPENAI_API_KEY", "DATA_ENCRYPTION_KEY", "STRIPE_SECRET_KEY"]),
  );
  expect(leaks("set OPENAI_API_KEY, see the README")).toEqual(["OPENAI_API_KEY", "README"]);
});

describe("the words customers read", () => {
  test("why something is not offered", () => {
    for (const [reason, text] of Object.entries(UNAVAILABLE_REASON_TEXT))
      expect(leaks(text), reason).toEqual([]);
  });

  test("each tool's title, summary, price and form", () => {
    for (const name of TOOL_NAMES) {
      const t = TOOLS[name];
      const words = [
        t.title,
        t.summary,
        pricingText(t),
        ...t.form.flatMap((f) => [
          f.label,
          "hint" in f ? (f.hint ?? "") : "",
          "placeholder" in f ? (f.placeholder ?? "") : "",
        ]),
      ];
      for (const w of words) expect(leaks(w), `${name}: ${w}`).toEqual([]);
    }
  });
});

/** Source files whose text customers see: every dashboard page but the operator's, its components, sign-in. */
function customerSources(): string[] {
  const roots = [
    "app/(dashboard)",
    "app/(auth)",
    "components/dashboard",
    "components/connections",
    "components/results",
  ];
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(path.join(ROOT, dir))) {
      const rel = path.join(dir, entry);
      if (statSync(path.join(ROOT, rel)).isDirectory()) walk(rel);
      else if (/\.tsx$/.test(entry) && !rel.includes(`${path.sep}operator${path.sep}`)) out.push(rel);
    }
  };
  for (const r of roots) walk(r);
  return out;
}

test("no customer page or component names a setting, a command or the README", () => {
  const files = customerSources();
  expect(files.length).toBeGreaterThan(30);
  expect(files).toContain(path.join("app/(dashboard)/dashboard/billing/page.tsx"));
  for (const file of files) expect(leaks(readFileSync(path.join(ROOT, file), "utf8")), file).toEqual([]);
});
