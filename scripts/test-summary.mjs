// Adds up vitest's and Playwright's JSON reports into one line: "N passed, N failed, N skipped".
// A runner that crashed without a report counts as one failure, so a broken run is never green.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { relative } from "node:path";

const [vitestRc, playwrightRc, checksFailed = 0, partialRc] = process.argv.slice(2).map(Number);
// The type check, the linter and knip (unused files, exports and dependencies) count as three checks.
let passed = 3 - checksFailed;
let failed = checksFailed;
let skipped = 0;
// The names of what failed, so a red run in CI says what to look at.
const failures = [];
if (checksFailed > 0) failures.push(`${checksFailed} of the type check, the linter and knip`);

if (existsSync("reports/vitest.json")) {
  const v = JSON.parse(readFileSync("reports/vitest.json", "utf8"));
  passed += v.numPassedTests;
  failed += v.numFailedTests;
  skipped += v.numPendingTests + (v.numTodoTests ?? 0);
  // Suites that failed to load have no tests counted.
  if (vitestRc !== 0 && v.numFailedTests === 0) failed += Math.max(1, v.numFailedTestSuites ?? 0);
  for (const file of v.testResults ?? []) {
    const name = relative(process.cwd(), file.name);
    const failedTests = (file.assertionResults ?? []).filter((t) => t.status === "failed");
    for (const t of failedTests) failures.push(`vitest ${name} > ${t.fullName}`);
    if (failedTests.length === 0 && file.status === "failed") failures.push(`vitest ${name} (did not load)`);
  }
} else failed += 1;

/** One Playwright JSON report; a missing one counts as one failure. */
function addPlaywright(file, rc) {
  if (!existsSync(file)) {
    failed += 1;
    failures.push(`playwright: no report ${file}`);
    return;
  }
  const p = JSON.parse(readFileSync(file, "utf8"));
  passed += p.stats.expected + p.stats.flaky;
  failed += p.stats.unexpected;
  skipped += p.stats.skipped;
  if (rc !== 0 && p.stats.unexpected === 0) failed += 1;
  const walk = (suite) => {
    for (const spec of suite.specs ?? []) {
      for (const t of spec.tests ?? []) {
        if (t.status === "unexpected")
          failures.push(`playwright ${spec.file}:${spec.line} > ${spec.title} [${t.projectName}]`);
      }
    }
    for (const child of suite.suites ?? []) walk(child);
  };
  for (const suite of p.suites ?? []) walk(suite);
}

addPlaywright("reports/playwright.json", playwrightRc);
// The run against a server set up only in part (scripts/test.sh passes its exit code).
if (partialRc !== undefined && !Number.isNaN(partialRc))
  addPlaywright("reports/playwright-partial.json", partialRc);

writeFileSync("reports/summary.json", JSON.stringify({ passed, failed, skipped, failures }));
for (const f of failures) console.log(`failed: ${f}`);
console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failed > 0 ? 1 : 0);
