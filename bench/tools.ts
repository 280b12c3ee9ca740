// npx tsx bench/tools.ts [--runs N]: wall time and peak memory of the page tools against local fixture sites.
// Each tool runs in its own child process so its peak RSS is its own: the child warms up once (module
// init, JIT), then times N runs; peak RSS is the kernel's maxRSS of the child (sampled RSS shown beside it).
import { spawn } from "node:child_process";
import path from "node:path";
import { createGuardedFetch } from "@/lib/fetch";
import { loadToolRunner } from "@/lib/tools/load-runner";
import type { ToolContext, ToolRunner } from "@/lib/tools/types";
import { startFixtureServer } from "@/test/fixture-server";
import { buildFixtureSite } from "@/test/fixtures/generated-site";
import { startSiteFixture } from "@/test/fixtures/site/server";

interface ChildReport {
  wallMs: number[];
  baselineRssMb: number;
  sampledPeakRssMb: number;
  maxRssMb: number;
}

const PAGE_TOOLS = ["audits", "seo-aeo-geo-audit", "faq-generator", "llms-txt"];
const TOOLS: Record<string, () => Promise<ToolRunner<{ url: string }, unknown>>> = Object.fromEntries(
  PAGE_TOOLS.map((name) => [name, async () => (await loadToolRunner(name))!]),
);

const mb = (bytes: number) => Math.round((bytes / 1024 / 1024) * 10) / 10;

async function runChild(tool: string, url: string, runs: number): Promise<void> {
  const def = await TOOLS[tool]!();
  const ctx: ToolContext = {
    jobId: "bench",
    accountId: "bench",
    signal: new AbortController().signal,
    fetch: createGuardedFetch({ allowPrivateTargets: true }),
    env: {},
  };
  await def.run({ url }, ctx);
  globalThis.gc?.();
  const baseline = process.memoryUsage.rss();
  let sampledPeak = baseline;
  const sampler = setInterval(() => {
    sampledPeak = Math.max(sampledPeak, process.memoryUsage.rss());
  }, 5);
  const wallMs: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    await def.run({ url }, ctx);
    wallMs.push(performance.now() - started);
  }
  clearInterval(sampler);
  sampledPeak = Math.max(sampledPeak, process.memoryUsage.rss());
  const report: ChildReport = {
    wallMs,
    baselineRssMb: mb(baseline),
    sampledPeakRssMb: mb(sampledPeak),
    // resourceUsage().maxRSS is in kilobytes.
    maxRssMb: Math.round((process.resourceUsage().maxRSS / 1024) * 10) / 10,
  };
  process.stdout.write(`${JSON.stringify(report)}\n`);
}

function spawnChild(tool: string, url: string, runs: number): Promise<ChildReport> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [
        "--expose-gc",
        "--import",
        "tsx",
        path.resolve(import.meta.dirname, "tools.ts"),
        "--child",
        tool,
        url,
        String(runs),
      ],
      { stdio: ["ignore", "pipe", "inherit"], env: { ...process.env, ALLOW_PRIVATE_TARGETS: "true" } },
    );
    let out = "";
    child.stdout.on("data", (chunk: Buffer) => {
      out += chunk.toString();
    });
    child.on("error", reject);
    child.on("close", (code) => {
      const line = out.trim().split("\n").at(-1) ?? "";
      if (code !== 0) reject(new Error(`${tool} child exited with ${code}: ${out}`));
      else resolve(JSON.parse(line) as ChildReport);
    });
  });
}

function quantile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
}

async function main() {
  const runsArg = process.argv.indexOf("--runs");
  const runs = runsArg > 0 ? Number(process.argv[runsArg + 1]) : 5;
  const site = await startSiteFixture();
  const generated = buildFixtureSite({ pages: 50 });
  const bigSite = await startFixtureServer({ routes: generated.routes });
  const cases: Array<[string, string, string]> = [
    ["audits", `${site.url}/good.html`, "good.html + robots, sitemaps, llms.txt"],
    ["audits", `${site.url}/bad.html`, "bad.html + robots, sitemaps, llms.txt"],
    ["seo-aeo-geo-audit", `${site.url}/good.html`, "good.html"],
    ["faq-generator", `${site.url}/faq.html`, "faq.html"],
    ["llms-txt", `${bigSite.url}/`, `generated site, ${generated.pages.length} pages`],
  ];
  const rows: string[][] = [];
  try {
    for (const [tool, url, target] of cases) {
      const r = await spawnChild(tool, url, runs);
      const sorted = [...r.wallMs].sort((a, b) => a - b);
      rows.push([
        tool,
        target,
        String(runs),
        quantile(sorted, 0.5).toFixed(1),
        (sorted[0] ?? 0).toFixed(1),
        (sorted.at(-1) ?? 0).toFixed(1),
        r.baselineRssMb.toFixed(1),
        r.sampledPeakRssMb.toFixed(1),
        (r.sampledPeakRssMb - r.baselineRssMb).toFixed(1),
        r.maxRssMb.toFixed(1),
      ]);
    }
  } finally {
    await site.close();
    await bigSite.close();
  }
  const header = [
    "tool",
    "target",
    "runs",
    "median ms",
    "min ms",
    "max ms",
    "RSS before MB",
    "sampled peak MB",
    "growth MB",
    "max RSS MB",
  ];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]?.length ?? 0)));
  const line = (cells: string[]) =>
    cells.map((c, i) => (i < 2 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join("  ");
  console.log(line(header));
  console.log(widths.map((w) => "-".repeat(w)).join("  "));
  for (const row of rows) console.log(line(row));
  console.log(
    `\nnode ${process.version}, ${runs} timed runs after one warm-up run, each tool in its own process.`,
  );
}

if (process.argv[2] === "--child") {
  const [, , , tool = "", url = "", runs = "5"] = process.argv;
  await runChild(tool, url, Number(runs));
} else {
  await main();
}
