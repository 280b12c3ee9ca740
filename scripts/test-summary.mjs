// Adds up vitest's and Playwright's JSON reports into one line: "N passed, N failed, N skipped".
// A runner that crashed without a report counts as one failure, so a broken run is never green.
import { existsSync, readFileSync, writeFileSync } from "node:fs";

const [vitestRc, playwrightRc, checksFailed = 0] = process.argv.slice(2).map(Number);
// The type check and the linter count as two checks.
let passed = 2 - checksFailed;
let failed = checksFailed;
let skipped = 0;

if (existsSync("reports/vitest.json")) {
  const v = JSON.parse(readFileSync("reports/vitest.json", "utf8"));
  passed += v.numPassedTests;
  failed += v.numFailedTests;
  skipped += v.numPendingTests + (v.numTodoTests ?? 0);
  // Suites that failed to load have no tests counted.
  if (vitestRc !== 0 && v.numFailedTests === 0) failed += Math.max(1, v.numFailedTestSuites ?? 0);
} else failed += 1;

if (existsSync("reports/playwright.json")) {
  const p = JSON.parse(readFileSync("reports/playwright.json", "utf8"));
  passed += p.stats.expected + p.stats.flaky;
  failed += p.stats.unexpected;
  skipped += p.stats.skipped;
  if (playwrightRc !== 0 && p.stats.unexpected === 0) failed += 1;
} else failed += 1;

writeFileSync("reports/summary.json", JSON.stringify({ passed, failed, skipped }));
console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failed > 0 ? 1 : 0);
