import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { expect, test } from "vitest";
import { CHECK_CATALOG, checkInfo } from "./check-catalog";
import { parsePage } from "./page";
import { analyzeSecurityHeaders } from "./security-headers";

const ROOT = path.resolve(import.meta.dirname, "..");

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return sources(full);
    return /\.ts$/.test(name) && !/\.test\.ts$/.test(name) ? [full] : [];
  });
}

test("every check code written in the analysis and the tools has its words in the catalogue", () => {
  const codes = new Set<string>();
  for (const file of [...sources(path.join(ROOT, "analysis")), ...sources(path.join(ROOT, "tools"))]) {
    const text = readFileSync(file, "utf8");
    for (const m of text.matchAll(
      /"((?:http|crawl|meta|headings|structured-data|content|ai-access|aeo)\.[a-z0-9-]+)"/g,
    )) {
      codes.add(m[1]!);
    }
    for (const m of text.matchAll(/createSecurityTest\(\s*"([a-z0-9-]+)"/g)) codes.add(`security.${m[1]}`);
    for (const m of text.matchAll(/observatoryTest\(\s*"([a-z0-9-]+)"/g)) codes.add(`security.${m[1]}`);
  }
  expect(codes.size).toBeGreaterThan(40);
  const missing = [...codes].filter((c) => !CHECK_CATALOG[c]);
  expect(missing).toEqual([]);
  for (const [code, info] of Object.entries(CHECK_CATALOG)) {
    expect(info.title, code).not.toContain(code);
    expect(info.meaning.length, code).toBeGreaterThan(20);
    expect(info.fix.length, code).toBeGreaterThan(10);
  }
});

test("an unknown code still reads as words, never as the code", () => {
  expect(checkInfo("crawl.some-new-thing").title).toBe("Some new thing");
});

test("a passed security check never reads as a failure", () => {
  const page = parsePage({ url: "https://example.com/", html: "<html><body>hi</body></html>", headers: {} });
  const report = analyzeSecurityHeaders(page, { status: 200 });
  const passed = report.tests.filter((t) => t.status === "pass");
  const referrer = report.tests.find((t) => t.id === "security.referrer-policy");
  expect(referrer).toMatchObject({ status: "pass", title: "Referrer-Policy header", severity: "notice" });
  expect(referrer?.message).toMatch(
    /^No Referrer-Policy header: browsers then apply strict-origin-when-cross-origin/,
  );
  for (const t of passed)
    expect(t.message, t.id).not.toMatch(/^[\w-]+( \([A-Z]+\))? (header )?not implemented\.?/i);
});
