/**
 * The four AI engines for monitoring tests and the monitors bench: each engine is the existing fake of its
 * provider's wire format (test/fakes/ai) behind a front server on 127.0.0.1 (port 0) that
 * - answers every request from a generator (the answer may depend on the prompt and vary per sample),
 * - holds each reply back `delayMs`,
 * - enforces a requests-per-minute limit over a sliding minute, answering 429 with Retry-After past it,
 * - can be taken down (HTTP 500 on every request),
 * and counts what it saw. Grounding redirect links of the Gemini fake are answered by a local redirector; the
 * returned `fetch` routes them (and the monitored sites) to local servers, so nothing leaves the machine.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { classifyBrandSentiment } from "@/lib/ai-visibility/sentiment";
import type { GuardedFetch } from "@/lib/fetch/types";
import type { EngineName, Env } from "@/lib/providers/engine-types";
import { seededRandom } from "@/lib/stats/proportions";
import { FAKE_ANTHROPIC_KEY, startFakeAnthropic } from "./ai/anthropic";
import { createRoutedFetch } from "./ai/engines";
import { FAKE_GEMINI_KEY, type RedirectTable, startFakeGemini } from "./ai/gemini";
import { FAKE_OPENAI_KEY, startFakeOpenAi } from "./ai/openai";
import { FAKE_PERPLEXITY_KEY, startFakePerplexity } from "./ai/perplexity";
import type { FakeProvider, ScriptedAnswer, StructuredReply } from "./ai/server";

export interface AnswerRequest {
  engine: EngineName;
  /** The request body as JSON text (the prompt is in it, in the provider's own field). */
  raw: string;
  /** How many requests this engine answered before this one. */
  n: number;
  random: () => number;
}

export interface EngineCounters {
  /** Requests for an answer (the sentiment judge's structured-output requests are counted in `judged`). */
  requests: number;
  /** Structured-output requests of the sentiment judge. */
  judged: number;
  /** Answers those requests carried (a batch request carries many). */
  judgedItems: number;
  /** The judge's requests answered 429 (those for answers are in `rateLimited`). */
  judgeRateLimited: number;
  answered: number;
  rateLimited: number;
  failed: number;
  /** The most requests accepted within any window (60 s unless `windowMs` says otherwise). */
  maxPerMinute: number;
  /** When each request arrived (epoch ms), 429s included. */
  times: number[];
  /** When each request answered 429 arrived. */
  limitedTimes: number[];
}

/** One answer's part of a batch judgement request, as the fake read it. */
export interface JudgeItem {
  brand: string;
  sentences: string[];
}

export interface MonitorEngines {
  env: Env;
  /**
   * Replaces the judge model's reply to every engine's structured-output requests (null: the default, the lexicon's
   * label for each item, as a model would give it).
   */
  setJudge(reply: ((items: JudgeItem[], engine: EngineName) => StructuredReply) | null): void;
  fetch: GuardedFetch;
  /** Host → local origin routes behind `fetch` (to rebuild it in another thread). */
  routes: Record<string, string>;
  counters: Record<EngineName, EngineCounters>;
  /** Engines answering HTTP 500 to everything. */
  down: Set<EngineName>;
  close(): Promise<void>;
}

export interface MonitorEnginesOptions {
  answer: (req: AnswerRequest) => ScriptedAnswer;
  delayMs?: number;
  /** Requests per minute each engine accepts (sliding 60 s); unlimited when absent. */
  rpm?: number;
  /** The limit's window (default 60 s): a test can run a "minute" of one second. */
  windowMs?: number;
  /** Keep each request's arrival time (tests; the bench leaves it off). */
  recordTimes?: boolean;
  seed?: number;
  /** Extra host → local origin routes for the fetch (the monitored site's home page). */
  routes?: Record<string, string>;
}

const ENGINES: EngineName[] = ["ChatGPT", "Claude", "Gemini", "Perplexity"];

async function listen(server: http.Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return (server.address() as AddressInfo).port;
}

export async function startMonitorEngines(opts: MonitorEnginesOptions): Promise<MonitorEngines> {
  const redirects: RedirectTable = new Map();
  const inner: Record<EngineName, FakeProvider> = {
    ChatGPT: await startFakeOpenAi(),
    Claude: await startFakeAnthropic(),
    Gemini: await startFakeGemini(redirects),
    Perplexity: await startFakePerplexity(),
  };
  const counters = Object.fromEntries(
    ENGINES.map((e): [EngineName, EngineCounters] => [
      e,
      {
        requests: 0,
        judged: 0,
        judgedItems: 0,
        judgeRateLimited: 0,
        answered: 0,
        rateLimited: 0,
        failed: 0,
        maxPerMinute: 0,
        times: [],
        limitedTimes: [],
      },
    ]),
  ) as Record<EngineName, EngineCounters>;
  const down = new Set<EngineName>();
  const random = seededRandom(opts.seed ?? 1);
  const fronts: http.Server[] = [];
  const env: Env = {};
  const keys: Record<EngineName, [string, string]> = {
    ChatGPT: ["OPENAI", FAKE_OPENAI_KEY],
    Claude: ["ANTHROPIC", FAKE_ANTHROPIC_KEY],
    Gemini: ["GEMINI", FAKE_GEMINI_KEY],
    Perplexity: ["PERPLEXITY", FAKE_PERPLEXITY_KEY],
  };

  let judgeReply: ((items: JudgeItem[], engine: EngineName) => StructuredReply) | null = null;
  for (const engine of ENGINES) {
    const provider = inner[engine];
    // The sentiment judge's verdict, as a model would give it: the lexicon's reading of the sentences it was sent
    // (one label, or one verdict per numbered item of a batch).
    provider.respondStructured((req) => {
      const { items, batch } = readJudgeInput(req.body);
      counters[engine].judgedItems += items.length;
      if (judgeReply) return judgeReply(items, engine);
      const labels = items.map((i) => classifyBrandSentiment(i.sentences, i.brand));
      return batch
        ? { json: { verdicts: labels.map((sentiment, i) => ({ id: i + 1, sentiment })) } }
        : { json: { sentiment: labels[0] ?? "neutral" } };
    });
    const target = new URL(provider.baseUrl);
    const window: number[] = [];
    let head = 0;
    let chain = Promise.resolve();
    const server = http.createServer(async (req, res) => {
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      const raw = Buffer.concat(chunks).toString("utf8");
      const c = counters[engine];
      const judging = isStructuredBody(raw);
      if (judging) c.judged++;
      else c.requests++;
      const now = Date.now();
      if (opts.recordTimes) c.times.push(now);
      const span = opts.windowMs ?? 60_000;
      while (head < window.length && window[head]! <= now - span) head++;
      if (opts.rpm !== undefined && window.length - head >= opts.rpm) {
        if (judging) c.judgeRateLimited++;
        else c.rateLimited++;
        if (opts.recordTimes) c.limitedTimes.push(now);
        const retry = Math.max(1, Math.ceil((window[head]! + span - now) / 1000));
        res.writeHead(429, { "content-type": "application/json", "retry-after": String(retry) });
        res.end(JSON.stringify({ error: { message: "Rate limit reached.", type: "requests", code: 429 } }));
        return;
      }
      window.push(now);
      c.maxPerMinute = Math.max(c.maxPerMinute, window.length - head);
      if (head > 10_000) {
        window.splice(0, head);
        head = 0;
      }
      if (down.has(engine)) {
        c.failed++;
        res.writeHead(500, { "content-type": "application/json" });
        res.end(
          JSON.stringify({ error: { message: "The server had an error.", type: "server_error", code: 500 } }),
        );
        return;
      }
      const answer = judging ? null : opts.answer({ engine, raw, n: c.answered, random });
      if (opts.delayMs) await new Promise((r) => setTimeout(r, opts.delayMs));
      // One request at a time to the inner fake: its queue pairs this request with this answer.
      const forwarded = chain.then(async () => {
        if (answer) provider.enqueue({ answer });
        const upstream = await globalThis.fetch(`${target.origin}${req.url}`, {
          method: req.method,
          headers: Object.fromEntries(
            Object.entries(req.headers).filter(
              ([k, v]) => typeof v === "string" && k !== "host" && k !== "content-length",
            ),
          ) as Record<string, string>,
          body: raw,
        });
        return { status: upstream.status, body: await upstream.text() };
      });
      chain = forwarded.then(
        () => {},
        () => {},
      );
      try {
        const out = await forwarded;
        if (!judging) c.answered++;
        res.writeHead(out.status, { "content-type": "application/json" });
        res.end(out.body);
      } catch {
        res.writeHead(502).end();
      }
    });
    const port = await listen(server);
    fronts.push(server);
    const [prefix, key] = keys[engine];
    env[`${prefix}_API_KEY`] = key;
    env[`${prefix}_BASE_URL`] = `http://127.0.0.1:${port}${target.pathname.replace(/\/$/, "")}`;
  }

  const redirector = http.createServer((req, res) => {
    const id = new URL(req.url ?? "/", "http://x").pathname.replace("/grounding-api-redirect/", "");
    const to = redirects.get(id);
    res.writeHead(to ? 302 : 404, to ? { location: to } : {}).end();
  });
  const redirectPort = await listen(redirector);
  const routes = {
    "vertexaisearch.cloud.google.com": `http://127.0.0.1:${redirectPort}`,
    ...opts.routes,
  };
  const routedFetch = createRoutedFetch(routes);

  return {
    env,
    setJudge(reply) {
      judgeReply = reply;
    },
    fetch: routedFetch,
    routes,
    counters,
    down,
    async close() {
      await Promise.all([
        ...fronts.map((s) => new Promise((r) => s.close(r))),
        new Promise((r) => redirector.close(r)),
        ...Object.values(inner).map((p) => p.close()),
      ]);
    },
  };
}

/** Whether a request body asks for structured output (each provider's own JSON schema field). */
function isStructuredBody(raw: string): boolean {
  let body: Record<string, unknown>;
  try {
    body = JSON.parse(raw) as Record<string, unknown>;
  } catch {
    return false;
  }
  const text = body.text as { format?: { type?: string } } | undefined;
  const output = body.output_config as { format?: unknown } | undefined;
  const generation = body.generationConfig as
    | { responseJsonSchema?: unknown; responseSchema?: unknown }
    | undefined;
  const format = body.response_format as { type?: string } | undefined;
  return Boolean(
    text?.format?.type === "json_schema" ||
      output?.format ||
      generation?.responseJsonSchema ||
      generation?.responseSchema ||
      format?.type === "json_schema",
  );
}

/**
 * The items of a judge request's input: a batch ("Item 1", "Brand: …", "Sentences:", "- …" lines, items apart
 * by a blank line) or a single judgement (one "Brand:" block).
 */
function readJudgeInput(body: unknown): { items: JudgeItem[]; batch: boolean } {
  const input = findString(body, (v) => v.includes("Sentences:")) ?? "";
  const batch = /^Item 1$/m.test(input);
  const blocks = batch ? input.split(/^Item \d+$/m).slice(1) : [input];
  const items = blocks.map((block) => ({
    brand: /^Brand: (.*)$/m.exec(block)?.[1] ?? "",
    sentences: block
      .split("\n")
      .filter((l) => l.startsWith("- "))
      .map((l) => l.slice(2)),
  }));
  return { items, batch };
}

function findString(value: unknown, match: (v: string) => boolean): string | null {
  if (typeof value === "string") return match(value) ? value : null;
  if (Array.isArray(value)) {
    for (const v of value) {
      const found = findString(v, match);
      if (found) return found;
    }
  } else if (value && typeof value === "object") {
    for (const v of Object.values(value)) {
      const found = findString(v, match);
      if (found) return found;
    }
  }
  return null;
}

/**
 * A seeded answer generator for a brand: the brand is named with probability `mentionRate` (at a position that
 * varies), a competitor with probability `competitorRate`, and the brand's page is cited with probability
 * `citeRate` (retrieved but not cited otherwise, half the time). Every sample differs.
 */
export function brandAnswers(o: {
  brand: string;
  domain: string;
  competitor?: string;
  mentionRate: number;
  citeRate?: number;
  competitorRate?: number;
  rateFor?: (raw: string, engine: EngineName) => number | undefined;
}) {
  return ({ engine, raw, random }: AnswerRequest): ScriptedAnswer => {
    const rate = o.rateFor?.(raw, engine) ?? o.mentionRate;
    const mention = random() < rate;
    const competitor = o.competitor && random() < (o.competitorRate ?? 0.5);
    const cite = random() < (o.citeRate ?? 0);
    const parts = ["Several roasters stand out this year."];
    if (competitor && random() < 0.5) parts.push(`${o.competitor} is a popular choice.`);
    if (mention) parts.push(`${o.brand} is an excellent choice and highly recommended.`);
    if (competitor && !parts.some((p) => p.includes(o.competitor!)))
      parts.push(`${o.competitor} is also worth a look.`);
    parts.push("Prices vary by region.");
    const page = `https://${o.domain}/guide/${engine.toLowerCase()}`;
    const other = `https://www.reddit.com/r/coffee/${Math.floor(random() * 5)}`;
    return {
      text: parts.join(" "),
      sources: cite
        ? [
            { url: page, title: o.domain, quote: parts[parts.length - 2] },
            { url: other, title: "reddit.com" },
          ]
        : [{ url: other, title: "reddit.com" }],
      searchResults: !cite && random() < 0.5 ? [{ url: page, title: o.domain }] : [],
    };
  };
}
