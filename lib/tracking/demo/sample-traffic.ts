/**
 * Real user-agent strings (as their operators document them) and a seeded generator of plausible traffic. The
 * demo account's charts, the tests and the benchmark use it; it is never mixed into a customer's data.
 */
export const SAMPLE_BOT_USER_AGENTS: readonly string[] = [
  "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.1; +https://openai.com/gptbot)",
  "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; ChatGPT-User/1.0; +https://openai.com/bot",
  "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; OAI-SearchBot/1.0; +https://openai.com/searchbot",
  "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ClaudeBot/1.0; +claudebot@anthropic.com)",
  "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Claude-User/1.0; +Claude-User@anthropic.com)",
  "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; PerplexityBot/1.0; +https://perplexity.ai/perplexitybot)",
  "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Perplexity-User/1.0; +https://perplexity.ai/perplexity-user)",
  "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
  "Mozilla/5.0 (Linux; Android 6.0.1; Nexus 5X Build/MMB29P) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.6778.204 Mobile Safari/537.36 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
  "Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)",
  "Mozilla/5.0 (compatible; Applebot/0.3; +http://www.apple.com/go/applebot)",
  "meta-externalagent/1.1 (+https://developers.facebook.com/docs/sharing/webmasters/crawler)",
  "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Amazonbot/0.1; +https://developer.amazon.com/support/amazonbot) Chrome/119.0.6045.214 Safari/537.36",
  "DuckAssistBot/1.2; (+http://duckduckgo.com/duckassistbot.html)",
  "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; MistralAI-User/1.0; +https://docs.mistral.ai/robots)",
  "Mozilla/5.0 (Linux; Android 5.0) AppleWebKit/537.36 (KHTML, like Gecko) Mobile Safari/537.36 (compatible; Bytespider; spider-feedback@bytedance.com)",
  "Mozilla/5.0 (compatible; YandexBot/3.0; +http://yandex.com/bots)",
  "Mozilla/5.0 (compatible; AhrefsBot/7.0; +http://ahrefs.com/robot/)",
  "Mozilla/5.0 (compatible; SemrushBot/7~bl; +http://www.semrush.com/bot.html)",
  "python-requests/2.31.0",
];

const SAMPLE_BROWSER_USER_AGENTS: readonly string[] = [
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
  "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15",
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_7 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/131.0.6778.73 Mobile/15E148 Safari/604.1",
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0",
];

const SAMPLE_PATHS: readonly string[] = [
  "/",
  "/pricing",
  "/blog/what-is-aeo",
  "/blog/llms-txt-guide",
  "/docs/getting-started",
  "/docs/api",
  "/about",
  "/robots.txt",
  "/sitemap.xml",
  "/llms.txt",
  "/blog/core-web-vitals?ref=newsletter",
  "/features/citations",
];

const SAMPLE_AI_REFERRERS: readonly string[] = [
  "https://chatgpt.com/",
  "https://www.perplexity.ai/search/abc",
  "https://gemini.google.com/app",
  "https://claude.ai/chat/1",
  "https://copilot.microsoft.com/",
];

/** mulberry32: a small seeded PRNG, so generated traffic is the same on every run. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface SampleVisit {
  path: string;
  userAgent: string;
  referrer?: string;
  status: number;
  timestamp: Date;
}

/**
 * `count` visits spread over the `days` days before `now`: about 80% bots, the rest people, a third of whom
 * arrive from an AI engine's answer (or with utm_source=chatgpt.com).
 */
export function generateSampleVisits(opts: { count: number; days: number; now: number; seed: number }) {
  const rand = seededRandom(opts.seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(rand() * list.length)] as T;
  const out: SampleVisit[] = [];
  for (let i = 0; i < opts.count; i++) {
    const timestamp = new Date(opts.now - Math.floor(rand() * opts.days * 86_400_000));
    const status = rand() < 0.9 ? 200 : pick([301, 404, 500]);
    if (rand() < 0.8) {
      out.push({ path: pick(SAMPLE_PATHS), userAgent: pick(SAMPLE_BOT_USER_AGENTS), status, timestamp });
      continue;
    }
    const r = rand();
    const path = r < 0.1 ? `${pick(SAMPLE_PATHS).split("?")[0]}?utm_source=chatgpt.com` : pick(SAMPLE_PATHS);
    const referrer =
      r < 0.1
        ? undefined
        : r < 0.35
          ? pick(SAMPLE_AI_REFERRERS)
          : rand() < 0.5
            ? "https://www.google.com/"
            : undefined;
    out.push({ path, userAgent: pick(SAMPLE_BROWSER_USER_AGENTS), referrer, status, timestamp });
  }
  return out;
}
