import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { ToolError } from "@/lib/errors";
import { createRoutedFetch, type FakeEngines, startFakeEngines } from "@/test/fakes/ai/engines";
import { type FixtureServer, startFixtureServer } from "@/test/fixture-server";
import { failedEngines, runBrandVisibility, runCitationCheck, separateUsage } from "./run-checks";
import { aiCitationCheckResult, brandVisibilityResult } from "./schemas";
import { SENTIMENT_METHOD } from "./sentiment";

let fakes: FakeEngines;
let home: FixtureServer;
let redirector: http.Server;
/** Pages whose grounding link the redirect service refuses (404), to exercise the title fallback. */
const brokenTargets = new Set<string>();
let fetch: ReturnType<typeof createRoutedFetch>;

beforeAll(async () => {
  fakes = await startFakeEngines();
  home = await startFixtureServer({
    routes: {
      "/": (_req, res) => {
        res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
        res.end(
          "<html><head><title>Acme Cloud | Project tools for teams</title></head><body>Hi</body></html>",
        );
      },
    },
  });
  // The grounding redirect service: 302 to the page a grounding link stands for.
  redirector = http.createServer((req, res) => {
    const id = new URL(req.url ?? "/", "http://x").pathname.replace("/grounding-api-redirect/", "");
    const target = fakes.redirects.get(id);
    if (!target || brokenTargets.has(target)) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(302, { location: target }).end();
  });
  await new Promise<void>((resolve) => redirector.listen(0, "127.0.0.1", resolve));
  const port = (redirector.address() as AddressInfo).port;
  fetch = createRoutedFetch({
    "vertexaisearch.cloud.google.com": `http://127.0.0.1:${port}`,
    "acme.com": home.url,
  });
});

afterAll(async () => {
  await Promise.all([fakes.close(), home.close(), new Promise((r) => redirector.close(r))]);
});

const ctx = () => ({
  signal: new AbortController().signal,
  fetch,
  env: fakes.env,
  retry: { baseDelayMs: 10 },
});

describe("ai-citation-check", () => {
  test("citation only, mention only, subdomain citation, competitor cited — on the four engines", async () => {
    // ChatGPT: cites the domain without naming it (and "Acmes" is not a mention).
    fakes.openai.enqueue({
      answer: {
        text: "Teams pick tools by price. Acmes and Acmeville are unrelated words. Rival is popular.",
        sources: [
          { url: "https://www.acme.com/guide", title: "Guide", quote: "Teams pick tools by price." },
          { url: "https://rival.io/", title: "Rival", quote: "Rival is popular." },
        ],
      },
    });
    // Claude: names the brand by its site name, cites only a third party.
    fakes.anthropic.enqueue({
      answer: {
        text: "Acme Cloud is an excellent, reliable choice loved by teams. Wikipedia has background.",
        sources: [
          {
            url: "https://en.wikipedia.org/wiki/Project",
            title: "Project",
            quote: "Wikipedia has background.",
          },
        ],
      },
    });
    // Perplexity: cites a subdomain page and names the competitor first.
    fakes.perplexity.enqueue({
      answer: {
        text: "Rival leads the market [1]. Acme is a project tool based in Berlin [2].",
        sources: [
          { url: "https://rival.io/about", title: "About Rival" },
          { url: "https://docs.acme.com/start", title: "Acme docs" },
        ],
      },
    });
    // Gemini: the competitor is cited (through a grounding redirect), the domain is not.
    fakes.gemini.enqueue({
      answer: {
        text: "Rival is the best known option for small teams.",
        sources: [{ url: "https://www.rival.io/pricing", title: "Rival pricing" }],
      },
    });

    const run = await runCitationCheck(
      { prompt: "best project tool?", domain: "acme.com", competitors: ["rival.io", "other.com"] },
      ctx(),
    );
    const by = Object.fromEntries(run.results.map((r) => [r.engine, r]));

    expect(run.results.map((r) => r.engine)).toEqual(["ChatGPT", "Perplexity", "Claude", "Gemini"]);
    expect(by.ChatGPT).toMatchObject({
      cited: true,
      citedUrls: ["https://www.acme.com/guide"],
      mentionPosition: 0,
    });
    expect(by.ChatGPT!.sentiment).toBe("neutral");
    expect(by.Claude).toMatchObject({
      cited: false,
      citedUrls: [],
      mentionPosition: 1,
      sentiment: "positive",
    });
    expect(by.Perplexity).toMatchObject({
      cited: true,
      citedUrls: ["https://docs.acme.com/start"],
      mentionPosition: 2,
    });
    expect(by.Gemini).toMatchObject({ cited: false, mentionPosition: 0 });
    expect(by.Gemini!.sources).toEqual([
      { url: "https://www.rival.io/pricing", title: "rival.io", domain: "rival.io" },
    ]);
    expect(by.Perplexity!.sources.map((s) => s.domain)).toEqual(["rival.io", "acme.com"]);
    expect(by.Claude!.model).toBe("claude-sonnet-5");

    expect(run.summary).toEqual({
      citedIn: ["ChatGPT", "Perplexity"],
      mentionedIn: ["Perplexity", "Claude"],
      notFoundIn: ["Gemini"],
      citationRate: 0.5,
      // ChatGPT 50; Perplexity 50 + 30×0.75 + 10 (neutral); Claude 30 + 20; Gemini 0 → mean 45.6
      visibilityScore: 46,
      competitors: [
        { domain: "rival.io", citedIn: ["ChatGPT", "Perplexity", "Gemini"], citationRate: 0.75 },
        { domain: "other.com", citedIn: [], citationRate: 0 },
      ],
    });
    expect(run.brandNames).toEqual(["acme.com", "acme", "Acme Cloud"]);
    expect(run.sentimentMethod).toBe(SENTIMENT_METHOD);
    expect(failedEngines(run)).toEqual([]);

    const { result, usage } = separateUsage(run);
    expect(aiCitationCheckResult.parse(result)).toEqual(result);
    expect(JSON.stringify(result)).not.toContain("inputTokens");
    expect(usage.find((u) => u.engine === "ChatGPT")).toMatchObject({
      inputTokens: 312,
      outputTokens: 188,
      attempts: 1,
    });
  });

  test("a Gemini link that cannot be resolved falls back to the chunk title's domain", async () => {
    brokenTargets.add("https://blog.acme.com/post");
    fakes.gemini.enqueue({
      answer: {
        text: "Acme explains this well. Rival too.",
        sources: [
          { url: "https://blog.acme.com/post", title: "Post", quote: "Acme explains this well." },
          { url: "https://rival.io/x", title: "X", quote: "Rival too." },
        ],
      },
    });
    const run = await runCitationCheck({ prompt: "q", domain: "acme.com", engines: ["Gemini"] }, ctx());
    const gemini = run.results[0]!;
    expect(gemini.sources[0]).toMatchObject({ title: "acme.com", domain: "acme.com" });
    expect(gemini.sources[0]!.url).toMatch(
      /^https:\/\/vertexaisearch\.cloud\.google\.com\/grounding-api-redirect\//,
    );
    expect(gemini.sources[1]).toEqual({ url: "https://rival.io/x", title: "rival.io", domain: "rival.io" });
    expect(gemini.cited).toBe(true);
    expect(gemini.mentionPosition).toBe(1);
  });

  test("one engine failing keeps the others and names the failure", async () => {
    fakes.openai.enqueue({ answer: { text: "Acme is fine.", sources: [] } });
    fakes.perplexity.enqueue({ status: 500 }, { status: 500 });
    const run = await runCitationCheck(
      { prompt: "q", domain: "acme.com", engines: ["ChatGPT", "Perplexity"] },
      { ...ctx(), retry: { baseDelayMs: 10, maxAttempts: 2 } },
    );
    const failed = run.results.find((r) => r.engine === "Perplexity")!;
    expect(failed.error).toEqual({
      code: "ENGINE_UNAVAILABLE",
      message: "Perplexity failed on its side (HTTP 500).",
    });
    expect(failed).toMatchObject({
      cited: false,
      citedUrls: [],
      mentionPosition: 0,
      sentiment: "neutral",
      answer: "",
    });
    expect(failed.usage.attempts).toBe(2);
    expect(failedEngines(run)).toEqual(["Perplexity"]);
    expect(run.summary.mentionedIn).toEqual(["ChatGPT"]);
    expect(run.summary.notFoundIn).toEqual([]);
    expect(run.summary.citationRate).toBe(0);
    expect(aiCitationCheckResult.parse(separateUsage(run).result).results[1]!.error?.code).toBe(
      "ENGINE_UNAVAILABLE",
    );
  });

  test("every engine failing fails the check with ENGINES_FAILED", async () => {
    fakes.openai.enqueue({ status: 503 });
    fakes.anthropic.enqueue({ status: 400, message: "bad" });
    const err = await runCitationCheck(
      { prompt: "q", domain: "acme.com", engines: ["ChatGPT", "Claude"] },
      { ...ctx(), retry: { baseDelayMs: 10, maxAttempts: 1 } },
    ).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ToolError);
    expect((err as ToolError).code).toBe("ENGINES_FAILED");
    expect((err as ToolError).message).toContain("ChatGPT failed on its side (HTTP 503).");
    expect((err as ToolError).message).toContain("Claude rejected the request (HTTP 400).");
  });
});

describe("brand-visibility", () => {
  test("lists every brand named in order with its citation, and the competitors", async () => {
    fakes.openai.enqueue({
      answer: {
        text: "Rival is the leader. Acme Cloud is a solid alternative. Other.com is cheaper. Wikipedia covers all three.",
        sources: [
          { url: "https://rival.io/", title: "Rival", quote: "Rival is the leader." },
          { url: "https://en.wikipedia.org/wiki/X", title: "X", quote: "Wikipedia covers all three." },
        ],
      },
    });
    const run = await runBrandVisibility(
      { prompt: "q", domain: "acme.com", competitors: ["rival.io", "other.com", "absent.net"] },
      ctx(),
    );
    expect(run.engine).toBe("ChatGPT");
    expect(run.mentions).toEqual([
      { domain: "rival.io", text: "Rival", position: 1, cited: true },
      { domain: "acme.com", text: "Acme Cloud", position: 2, cited: false },
      { domain: "other.com", text: "Other.com", position: 3, cited: false },
      { domain: "wikipedia.org", text: "Wikipedia", position: 4, cited: true },
    ]);
    expect(run.mentionPosition).toBe(2);
    expect(run.cited).toBe(false);
    expect(run.competitors).toEqual([
      { domain: "rival.io", mentioned: true, mentionPosition: 1, cited: true },
      { domain: "other.com", mentioned: true, mentionPosition: 3, cited: false },
      { domain: "absent.net", mentioned: false, mentionPosition: 0, cited: false },
    ]);
    const { result } = separateUsage(run);
    expect(brandVisibilityResult.parse(result)).toEqual(result);
  });

  test("its one engine failing fails the check", async () => {
    const err = await runBrandVisibility(
      { prompt: "q", domain: "acme.com", engine: "Claude" },
      { ...ctx(), env: { ...fakes.env, ANTHROPIC_API_KEY: "" } },
    ).catch((e: unknown) => e);
    expect((err as ToolError).code).toBe("ENGINES_FAILED");
    expect((err as ToolError).message).toContain("ANTHROPIC_API_KEY");
  });
});

describe("cited, retrieved and the sentiment judge", () => {
  const readNotCited = {
    text: "Acme is an excellent choice for small teams. Rival is popular too.",
    sources: [{ url: "https://rival.io/guide", title: "Rival guide", quote: "Rival is popular too." }],
    searchResults: [{ url: "https://www.acme.com/pricing", title: "Acme pricing" }],
    queries: ["best project tool small teams"],
  };

  test("a page the engine read but did not cite is retrieved, not cited, on all four engines", async () => {
    fakes.openai.enqueue({ answer: readNotCited });
    fakes.anthropic.enqueue({ answer: readNotCited });
    fakes.gemini.enqueue({ answer: readNotCited });
    fakes.perplexity.enqueue({ answer: readNotCited });
    // The judge (ChatGPT's judge model, the cheapest configured) answers every engine's sentences.
    fakes.openai.respondStructured((req) => ({
      json: {
        sentiment: String((req.body as { input: string }).input).includes("excellent") ? "mixed" : "neutral",
      },
      inputTokens: 60,
      outputTokens: 7,
    }));
    const judgeCallsBefore = fakes.openai.structuredRequests.length;
    const run = await runCitationCheck(
      { prompt: "best project tool?", domain: "acme.com", competitors: ["rival.io"] },
      ctx(),
    ).finally(() => fakes.openai.respondStructured(null));

    for (const entry of run.results) {
      expect(entry.cited, entry.engine).toBe(false);
      expect(entry.citedUrls).toEqual([]);
      expect(entry.sources.map((s) => s.domain)).toEqual(["rival.io"]);
      expect(
        entry.retrieved.map((s) => s.url),
        entry.engine,
      ).toContain("https://www.acme.com/pricing");
      expect(entry.retrieved.find((s) => s.url === "https://www.acme.com/pricing")!.domain).toBe("acme.com");
      expect(entry.queries).toEqual(entry.engine === "Perplexity" ? [] : readNotCited.queries);
      expect(entry).toMatchObject({
        mentionPosition: 1,
        sentiment: "neutral",
        sentimentDetail: { label: "mixed", method: "model", model: expect.stringContaining("gpt-5-nano") },
      });
    }
    // Gemini's redirect links are resolved for both lists.
    const gemini = run.results.find((r) => r.engine === "Gemini")!;
    expect(gemini.retrieved.map((s) => s.url).sort()).toEqual(
      ["https://rival.io/guide", "https://www.acme.com/pricing"].sort(),
    );
    expect(run.summary.citedIn).toEqual([]);
    expect(run.summary.mentionedIn).toEqual(["ChatGPT", "Perplexity", "Claude", "Gemini"]);
    expect(run.sentimentMethod).toMatch(/^A model judge \(gpt-5-nano.*structured output\)/);
    expect(fakes.openai.structuredRequests.length - judgeCallsBefore).toBe(4);

    const { result, usage } = separateUsage(run);
    expect(aiCitationCheckResult.parse(result)).toEqual(result);
    expect(JSON.stringify(result)).not.toContain("inputTokens");
    const judgements = usage.filter((u) => u.purpose === "sentiment");
    expect(judgements).toHaveLength(4);
    for (const u of judgements)
      expect(u).toMatchObject({ engine: "ChatGPT", inputTokens: 60, outputTokens: 7 });
    expect(usage.filter((u) => u.purpose === undefined)).toHaveLength(4);
  });

  test("the judge failing leaves the lexicon's verdict, and the result says which method judged", async () => {
    fakes.anthropic.enqueue({ answer: readNotCited });
    fakes.openai.enqueueStructured({ status: 503 }, { status: 503 });
    const run = await runBrandVisibility({ prompt: "q", domain: "acme.com", engine: "Claude" }, ctx());
    expect(run).toMatchObject({
      sentiment: "positive",
      sentimentDetail: { label: "positive", method: "lexicon" },
      sentimentMethod: SENTIMENT_METHOD,
    });
    expect(run.sentimentUsage).toBeUndefined();
    expect(run.retrieved.map((s) => s.domain).sort()).toEqual(["acme.com", "rival.io"]);
    const { result } = separateUsage(run);
    expect(brandVisibilityResult.parse(result)).toEqual(result);
  });
});
