// Times the page analyses on 1 MB of hostile text of each kind and on an ordinary page: `npm run bench:analysis`.
// Each figure is one run in milliseconds; every one should stay far under a second.
import { performance } from "node:perf_hooks";
import { analyzeAeoPage } from "@/lib/analysis/aeo";
import { analyzePage } from "@/lib/analysis/analyze-page";
import { analyzeGeo } from "@/lib/analysis/geo";
import { parseLinkHeader } from "@/lib/analysis/meta-links";
import { parsePage } from "@/lib/analysis/page";
import { analyzeStructuredData } from "@/lib/analysis/structured-data/analyze";
import { extractPage } from "@/lib/crawl/extract-page";
import { parseLlmsTxt } from "@/lib/seo/llms-txt";
import { parseRobotsTxt } from "@/lib/seo/robots";
import { extractFaqPairs } from "@/lib/tools/faq-generator/extract-pairs";
import { ADVERSARIAL_KINDS, buildAdversarialPage, buildNormalPage, repeatTo } from "./analysis-inputs";

const SIZE = Number(process.env.BENCH_BYTES ?? 1024 * 1024);
const URL_ = "https://example.com/guide";

function time(run: () => unknown): number {
  const start = performance.now();
  run();
  return Math.round(performance.now() - start);
}

function measure(html: string, text: string) {
  let page = parsePage({ url: URL_, html });
  const parse = time(() => {
    page = parsePage({ url: URL_, html, headers: { link: [text] } });
  });
  const audit = time(() => analyzePage(page));
  const sd = analyzeStructuredData(page);
  return {
    parse,
    audit,
    aeo: time(() => analyzeAeoPage(page, sd)),
    geo: time(() => analyzeGeo(page)),
    faq: time(() => extractFaqPairs(page, sd)),
    crawl: time(() => extractPage(html, URL_)),
    "llms.txt": time(() =>
      parseLlmsTxt(`# Site\n## x${text}x\n- [a](b ${text}x\n- x${text}x\n# x${text}x\n`),
    ),
    robots: time(() => parseRobotsTxt(`User-agent: *\nDisallow: /${text}x\n${text}x`)),
    link: time(() => parseLinkHeader(`<a>; ${text}, ${text}`)),
  };
}

const rows: Array<[string, ReturnType<typeof measure>]> = [];
const normal = buildNormalPage();
measure(normal, "warm up");
rows.push([`normal page (${Math.round(normal.length / 1024)} KB)`, measure(normal, "rel=canonical")]);
for (const [kind, unit] of Object.entries(ADVERSARIAL_KINDS)) {
  const text = repeatTo(unit(), SIZE);
  rows.push([kind, measure(buildAdversarialPage(text), text)]);
}
const columns = Object.keys(rows[0]![1]);
console.log(`text per input: ${SIZE} characters; times in ms (parse = HTML parsing, audit = analyzePage)`);
console.log(["input".padEnd(24), ...columns.map((c) => c.padStart(9))].join(""));
for (const [name, r] of rows) {
  console.log([name.padEnd(24), ...columns.map((c) => String(r[c as keyof typeof r]).padStart(9))].join(""));
}
