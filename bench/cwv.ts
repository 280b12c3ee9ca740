// npm run bench:cwv [-- --runs N]: wall time and peak memory of Core Web Vitals runs on the local fixture pages.
// Memory is sampled every 100 ms: this process's RSS plus Chromium's whole process tree (from /proc). Chromium's
// processes share most of their pages, so the tree is counted by PSS (shared pages split among their users);
// the plain sum of its RSS, which counts shared pages once per process, is printed beside it.
// Goal per run: ≤ 30 s and ≤ 1 GB (node RSS + Chromium PSS).
import os from "node:os";
import { measureTreeMemory } from "@/lib/cwv/browser";
import { CwvError } from "@/lib/cwv/errors";
import type { CwvStrategy } from "@/lib/cwv/result-schema";
import { runCoreWebVitals } from "@/lib/cwv/run";
import { FIXTURE_PAGES, startCwvFixtures } from "@/test/cwv-fixtures";

const GOAL_MS = 30_000;
const GOAL_BYTES = 1024 ** 3;
const runsArg = process.argv.indexOf("--runs");
const RUNS = runsArg > 0 ? Math.max(1, Number(process.argv[runsArg + 1]) || 1) : 1;

const CASES: { page: keyof typeof FIXTURE_PAGES; strategy: CwvStrategy }[] = [
  { page: "clean", strategy: "mobile" },
  { page: "clean", strategy: "desktop" },
  { page: "slowLcp", strategy: "mobile" },
  { page: "layoutShift", strategy: "mobile" },
  { page: "slowInteraction", strategy: "mobile" },
];

const mb = (bytes: number) => Math.round(bytes / 1024 / 1024);

const site = await startCwvFixtures();
const env = {
  ...process.env,
  ALLOW_PRIVATE_TARGETS: "loopback",
  CRUX_API_KEY: "",
};
const rows: Record<string, string | number>[] = [];
let failures = 0;
try {
  for (const c of CASES) {
    for (let i = 0; i < RUNS; i++) {
      let browserPid = 0;
      let peakNode = process.memoryUsage.rss();
      let peakTotal = peakNode;
      let peakBrowser = 0;
      let peakBrowserRss = 0;
      let sampling = false;
      const sampler = setInterval(async () => {
        if (sampling) return;
        sampling = true;
        const node = process.memoryUsage.rss();
        const browser = browserPid ? await measureTreeMemory(browserPid) : { rssBytes: 0, pssBytes: 0 };
        peakNode = Math.max(peakNode, node);
        peakBrowser = Math.max(peakBrowser, browser.pssBytes);
        peakBrowserRss = Math.max(peakBrowserRss, browser.rssBytes);
        peakTotal = Math.max(peakTotal, node + browser.pssBytes);
        sampling = false;
      }, 100);
      const started = performance.now();
      let outcome: string;
      let failed = false;
      try {
        const result = await runCoreWebVitals(
          { url: `${site.url}${FIXTURE_PAGES[c.page]}`, strategy: c.strategy },
          {
            signal: AbortSignal.timeout(120_000),
            env,
            onBrowserStart: ({ pid }) => {
              browserPid = pid;
            },
          },
        );
        outcome = `score ${result.performanceScore}, LCP ${result.lcp.value} ms, CLS ${result.cls.value}, INP ${result.inp ? `${result.inp.value} ms` : "none"}`;
      } catch (err) {
        failures += 1;
        failed = true;
        outcome = err instanceof CwvError ? `${err.code}: ${err.message}` : String(err);
      } finally {
        clearInterval(sampler);
      }
      const wallMs = Math.round(performance.now() - started);
      const withinGoal = !failed && wallMs <= GOAL_MS && peakTotal <= GOAL_BYTES;
      rows.push({
        page: c.page,
        strategy: c.strategy,
        "wall s": Math.round(wallMs / 100) / 10,
        "peak node MB": mb(peakNode),
        "peak chromium PSS MB": mb(peakBrowser),
        "peak chromium RSS-sum MB": mb(peakBrowserRss),
        "peak total MB": mb(peakTotal),
        goal: failed ? "FAILED" : withinGoal ? "ok" : "MISSED",
        outcome,
      });
      console.log(
        `${c.page} (${c.strategy}): ${(wallMs / 1000).toFixed(1)} s, peak ${mb(peakTotal)} MB (node RSS ${mb(peakNode)} + chromium PSS ${mb(peakBrowser)}; chromium RSS sum ${mb(peakBrowserRss)}) – ${outcome}`,
      );
    }
  }
} finally {
  await site.close();
}
console.table(rows);
console.log(`Goal per run: ≤ ${GOAL_MS / 1000} s and ≤ ${mb(GOAL_BYTES)} MB (node RSS + Chromium PSS).`);
console.log(
  `Load average while measuring (2 shared cores): ${os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(", ")}`,
);
if (failures > 0) process.exitCode = 1;
