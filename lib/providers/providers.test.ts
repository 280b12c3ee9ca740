import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type FakeEngines, startFakeEngines } from "@/test/fakes/ai/engines";
import type { FakeProvider } from "@/test/fakes/ai/server";
import { ENGINE_ADAPTERS, STRUCTURED_ADAPTERS } from "./ask-engine";
import { EngineError } from "./engine-retry";
import type { EngineName } from "./engine-types";
import { checkEngineAvailability, DEFAULT_MODELS, findUnconfiguredEngines, listEngines } from "./engines";
import { JUDGE_MODELS } from "./structured-types";

let fakes: FakeEngines;
beforeAll(async () => {
  fakes = await startFakeEngines();
});
afterAll(() => fakes.close());

const fast = { baseDelayMs: 10, maxDelayMs: 3_000 };
const fakeOf = (engine: EngineName): FakeProvider =>
  ({ ChatGPT: fakes.openai, Claude: fakes.anthropic, Gemini: fakes.gemini, Perplexity: fakes.perplexity })[
    engine
  ];

const answer = {
  text: "For small teams, Acme is a strong pick. Rival is another option. See docs.acme.com for pricing.",
  sources: [
    {
      url: "https://www.acme.com/pricing",
      title: "Acme pricing",
      quote: "For small teams, Acme is a strong pick.",
    },
    { url: "https://rival.io/compare", title: "Rival vs Acme", quote: "Rival is another option." },
  ],
  inputTokens: 120,
  outputTokens: 80,
};

describe.each(["ChatGPT", "Claude", "Gemini", "Perplexity"] as const)("%s adapter", (engine) => {
  test("sends the provider's real request and reads text, sources and usage from its response", async () => {
    const fake = fakeOf(engine);
    fake.enqueue({ answer });
    const before = fake.requests.length;
    const result = await ENGINE_ADAPTERS[engine]({ prompt: "best tool for small teams?", env: fakes.env });

    expect(fake.requests.length - before).toBe(1);
    const req = fake.requests.at(-1)!;
    const body = req.body as Record<string, unknown>;
    expect(result.engine).toBe(engine);
    expect(result.answer).toBe(answer.text);
    expect(result.usage).toEqual({ inputTokens: 120, outputTokens: 80 });
    expect(result.attempts).toBe(1);
    expect(result.model).toContain(DEFAULT_MODELS[engine]);
    const urls = result.sources.map((s) => s.url);
    if (engine === "Gemini") {
      expect(urls).toHaveLength(2);
      for (const u of urls)
        expect(u).toMatch(/^https:\/\/vertexaisearch\.cloud\.google\.com\/grounding-api-redirect\//);
      expect(result.sources.map((s) => s.title)).toEqual(["acme.com", "rival.io"]);
    } else {
      expect(urls).toEqual(["https://www.acme.com/pricing", "https://rival.io/compare"]);
      expect(result.sources[0]!.title).toBe("Acme pricing");
    }

    switch (engine) {
      case "ChatGPT":
        expect(req.path).toBe("/v1/responses");
        expect(body.model).toBe(DEFAULT_MODELS.ChatGPT);
        expect(body.input).toBe("best tool for small teams?");
        expect(body.tools).toEqual([{ type: "web_search" }]);
        expect(body.include).toEqual(["web_search_call.action.sources"]);
        break;
      case "Claude":
        expect(req.path).toBe("/v1/messages");
        expect(req.headers["anthropic-version"]).toMatch(/^\d{4}-\d{2}-\d{2}$/);
        expect(body.max_tokens).toBeGreaterThan(0);
        expect(body.tools).toEqual([{ type: "web_search_20250305", name: "web_search", max_uses: 5 }]);
        expect(body.messages).toEqual([{ role: "user", content: "best tool for small teams?" }]);
        break;
      case "Gemini":
        expect(req.path).toBe(`/v1/models/${DEFAULT_MODELS.Gemini}:generateContent`);
        expect(req.headers["x-goog-api-key"]).toBe(fakes.env.GEMINI_API_KEY);
        expect(body.tools).toEqual([{ googleSearch: {} }]);
        expect(body.contents).toEqual([{ role: "user", parts: [{ text: "best tool for small teams?" }] }]);
        break;
      case "Perplexity":
        expect(req.path).toBe("/chat/completions");
        expect(req.headers.authorization).toBe(`Bearer ${fakes.env.PERPLEXITY_API_KEY}`);
        expect(body.model).toBe(DEFAULT_MODELS.Perplexity);
        break;
    }
  });

  test("a 429 with Retry-After is retried after the wait it names, then succeeds", async () => {
    const fake = fakeOf(engine);
    fake.enqueue(
      { status: 429, headers: { "retry-after": "1" }, message: "Rate limit reached." },
      { answer },
    );
    const before = fake.requests.length;
    const started = performance.now();
    const result = await ENGINE_ADAPTERS[engine]({ prompt: "q", env: fakes.env, retry: fast });
    const waited = performance.now() - started;

    expect(result.attempts).toBe(2);
    expect(fake.requests.length - before).toBe(2);
    expect(waited).toBeGreaterThanOrEqual(950);
    expect(result.answer).toBe(answer.text);
  });

  test("5xx is retried within the attempt budget, then fails with ENGINE_UNAVAILABLE", async () => {
    const fake = fakeOf(engine);
    fake.enqueue({ status: 503 }, { status: 503 }, { status: 503 });
    const before = fake.requests.length;
    const err = await ENGINE_ADAPTERS[engine]({
      prompt: "q",
      env: fakes.env,
      retry: { ...fast, maxAttempts: 3 },
    }).catch((e: unknown) => e);

    expect(err).toBeInstanceOf(EngineError);
    expect((err as EngineError).code).toBe("ENGINE_UNAVAILABLE");
    expect((err as EngineError).options.attempts).toBe(3);
    expect(fake.requests.length - before).toBe(3);
  });

  test("a rejected key is not retried and the message carries no provider text", async () => {
    const fake = fakeOf(engine);
    const before = fake.requests.length;
    const keyEnv = listEngines().find((e) => e.name === engine)!.envVar;
    const err = await ENGINE_ADAPTERS[engine]({
      prompt: "q",
      env: { ...fakes.env, [keyEnv]: "wrong-key" },
      retry: fast,
    }).catch((e: unknown) => e);

    expect((err as EngineError).code).toBe("ENGINE_REJECTED");
    expect(fake.requests.length - before).toBe(1);
    expect((err as EngineError).message).not.toMatch(/wrong-key/);
  });

  test("a Retry-After beyond the deadline is not waited for", async () => {
    const fake = fakeOf(engine);
    fake.enqueue({ status: 429, headers: { "retry-after": "20" } });
    const started = performance.now();
    const err = await ENGINE_ADAPTERS[engine]({
      prompt: "q",
      env: fakes.env,
      deadline: Date.now() + 2_000,
      retry: { ...fast, maxDelayMs: 60_000 },
    }).catch((e: unknown) => e);

    expect((err as EngineError).code).toBe("ENGINE_RATE_LIMITED");
    expect(performance.now() - started).toBeLessThan(1_500);
  });
});

const grounded = {
  text: "Acme is a strong pick for small teams. Rival costs less.",
  sources: [
    {
      url: "https://www.acme.com/pricing",
      title: "Acme pricing",
      quote: "Acme is a strong pick for small teams.",
    },
    { url: "https://rival.io/compare", title: "Rival vs Acme", quote: "Rival costs less." },
  ],
  searchResults: [
    { url: "https://forum.example.org/thread/42", title: "Which tool?" },
    { url: "https://news.example.com/acme-funding", title: "Acme raises" },
  ],
  queries: ["best project tool small teams", "acme vs rival pricing"],
};

const allRetrieved = [
  "https://www.acme.com/pricing",
  "https://rival.io/compare",
  "https://forum.example.org/thread/42",
  "https://news.example.com/acme-funding",
];

describe.each(["ChatGPT", "Claude", "Gemini", "Perplexity"] as const)(
  "%s cited, retrieved, queries",
  (engine) => {
    test("cited holds only what the answer cites; retrieved holds every result read; queries as reported", async () => {
      fakeOf(engine).enqueue({ answer: grounded });
      const result = await ENGINE_ADAPTERS[engine]({ prompt: "best tool for small teams?", env: fakes.env });

      if (engine === "Gemini") {
        // Chunk links are redirects: the redirect table tells the page each stands for.
        const page = (u: string) => fakes.redirects.get(u.split("/").at(-1)!);
        expect(result.sources.map((s) => page(s.url))).toEqual([
          "https://www.acme.com/pricing",
          "https://rival.io/compare",
        ]);
        expect(result.retrieved.map((s) => page(s.url))).toEqual([
          "https://www.acme.com/pricing",
          "https://rival.io/compare",
          "https://forum.example.org/thread/42",
          "https://news.example.com/acme-funding",
        ]);
        // A cited chunk is the same link in both lists, so resolving once serves both.
        expect(result.retrieved.slice(0, 2)).toEqual(result.sources);
        expect(result.retrieved.map((s) => s.title)).toEqual([
          "acme.com",
          "rival.io",
          "example.org",
          "example.com",
        ]);
      } else {
        expect(result.sources.map((s) => s.url)).toEqual([
          "https://www.acme.com/pricing",
          "https://rival.io/compare",
        ]);
        // Claude's results come search by search (two searches here): compare them as a set.
        const urls = result.retrieved.map((s) => s.url);
        expect(engine === "Claude" ? [...urls].sort() : urls).toEqual(
          engine === "Claude" ? [...allRetrieved].sort() : allRetrieved,
        );
      }
      if (engine === "Claude" || engine === "Perplexity") {
        // Both report titles with their results.
        expect(result.retrieved.find((r) => r.url.includes("forum"))).toEqual({
          url: "https://forum.example.org/thread/42",
          title: "Which tool?",
        });
      }
      if (engine === "ChatGPT") {
        // Search call sources carry only URLs; a cited one takes its citation's title.
        expect(result.retrieved.map((s) => s.title)).toEqual(["Acme pricing", "Rival vs Acme", "", ""]);
      }
      expect(result.queries).toEqual(engine === "Perplexity" ? [] : grounded.queries);
    });
  },
);

describe("Perplexity responses without citations", () => {
  test("cited: the search results the text's [n] markers name; all of them when it names none", async () => {
    const results = [
      { url: "https://www.acme.com/pricing", title: "Acme pricing" },
      { url: "https://rival.io/compare", title: "Rival vs Acme" },
      { url: "https://forum.example.org/thread/42", title: "Which tool?" },
    ];
    fakes.perplexity.enqueue({
      answer: {
        text: "Acme suits small teams [3], more than Rival [1][3].",
        searchResults: results,
        withoutCitations: true,
      },
    });
    const marked = await ENGINE_ADAPTERS.Perplexity({ prompt: "q", env: fakes.env });
    expect(marked.sources).toEqual([results[2], results[0]]);
    expect(marked.retrieved.map((r) => r.url)).toEqual(results.map((r) => r.url));
    fakes.perplexity.enqueue({
      answer: { text: "Acme suits small teams.", searchResults: results, withoutCitations: true },
    });
    const unmarked = await ENGINE_ADAPTERS.Perplexity({ prompt: "q", env: fakes.env });
    expect(unmarked.sources).toEqual(results);
  });
});

describe("OpenAI search call sources", () => {
  test("without sources in the search call, retrieved is empty and cited still stands", async () => {
    // A deployment whose proxy drops `include` gets no sources; nothing is invented in their place.
    fakes.openai.enqueue({ answer: grounded });
    const result = await ENGINE_ADAPTERS.ChatGPT({ prompt: "q", env: fakes.env });
    const req = fakes.openai.requests.at(-1)!.body as { include?: string[] };
    expect(req.include).toContain("web_search_call.action.sources");
    expect(result.retrieved).toHaveLength(4);
    expect(result.sources).toHaveLength(2);
  });
});

describe.each(["ChatGPT", "Claude", "Gemini", "Perplexity"] as const)("%s structured output", (engine) => {
  const schema = {
    type: "object",
    properties: { sentiment: { type: "string", enum: ["positive", "neutral", "negative", "mixed"] } },
    required: ["sentiment"],
    additionalProperties: false,
  };

  test("sends the provider's JSON schema field with the judge model and reads the JSON back", async () => {
    const fake = fakeOf(engine);
    fake.enqueueStructured({ json: { sentiment: "mixed" }, inputTokens: 70, outputTokens: 9 });
    const before = fake.structuredRequests.length;
    const answersBefore = fake.requests.length;
    const result = await STRUCTURED_ADAPTERS[engine]({
      instruction: "Judge the tone.",
      input: "Acme is fine.",
      schemaName: "brand_sentiment",
      schema,
      env: fakes.env,
    });

    expect(fake.structuredRequests.length - before).toBe(1);
    expect(fake.requests.length - answersBefore).toBe(1);
    expect(result).toMatchObject({ engine, json: { sentiment: "mixed" }, attempts: 1 });
    expect(result.usage).toEqual({ inputTokens: 70, outputTokens: 9 });
    expect(result.model).toContain(JUDGE_MODELS[engine].defaultModel);
    const req = fake.structuredRequests.at(-1)!;
    const body = req.body as Record<string, any>;
    switch (engine) {
      case "ChatGPT":
        expect(req.path).toBe("/v1/responses");
        expect(body.text.format).toEqual({
          type: "json_schema",
          name: "brand_sentiment",
          schema,
          strict: true,
        });
        expect(body.instructions).toBe("Judge the tone.");
        expect(body.tools).toBeUndefined();
        break;
      case "Claude":
        expect(body.output_config).toEqual({ format: { type: "json_schema", schema } });
        expect(body.system).toBe("Judge the tone.");
        expect(body.tools).toBeUndefined();
        break;
      case "Gemini":
        expect(req.path).toBe(`/v1/models/${JUDGE_MODELS.Gemini.defaultModel}:generateContent`);
        expect(body.generationConfig).toMatchObject({
          responseMimeType: "application/json",
          responseJsonSchema: schema,
        });
        expect(body.tools).toBeUndefined();
        break;
      case "Perplexity":
        expect(body.response_format).toEqual({
          type: "json_schema",
          json_schema: { name: "brand_sentiment", schema },
        });
        break;
    }
  });

  test("the judge model is overridable per provider, and a reply that is not JSON is a bad response", async () => {
    const fake = fakeOf(engine);
    fake.respondStructured(() => ({ json: "ignored" }));
    const model = `custom-${engine.toLowerCase()}`;
    const ok = await STRUCTURED_ADAPTERS[engine]({
      instruction: "i",
      input: "x",
      schemaName: "s",
      schema,
      env: { ...fakes.env, [JUDGE_MODELS[engine].modelEnv]: model },
    });
    fake.respondStructured(null);
    expect(ok.model).toContain(model);
    expect(ok.json).toBe("ignored");

    fake.enqueueStructured({ status: 503 });
    const err = await STRUCTURED_ADAPTERS[engine]({
      instruction: "i",
      input: "x",
      schemaName: "s",
      schema,
      env: fakes.env,
      retry: { ...fast, maxAttempts: 1 },
    }).catch((e: unknown) => e);
    expect((err as EngineError).code).toBe("ENGINE_UNAVAILABLE");
  });
});

describe("Claude turns", () => {
  test("a turn paused during search is continued and both parts make the answer", async () => {
    fakes.anthropic.enqueue(
      { answer: { text: "Searching done. ", stopReason: "pause_turn", inputTokens: 10, outputTokens: 5 } },
      { answer: { ...answer, inputTokens: 20, outputTokens: 7 } },
    );
    const before = fakes.anthropic.requests.length;
    const result = await ENGINE_ADAPTERS.Claude({ prompt: "q", env: fakes.env });
    const second = fakes.anthropic.requests[before + 1]!.body as { messages: { role: string }[] };

    expect(fakes.anthropic.requests.length - before).toBe(2);
    expect(second.messages.map((m) => m.role)).toEqual(["user", "assistant"]);
    expect(result.answer).toBe(`Searching done. ${answer.text}`);
    expect(result.usage).toEqual({ inputTokens: 30, outputTokens: 12 });
    expect(result.attempts).toBe(2);
  });
});

describe("cancellation", () => {
  test("the job's signal stops a slow engine with ENGINE_TIMEOUT", async () => {
    fakes.openai.enqueue({ answer, delayMs: 5_000 });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const started = performance.now();
    const err = await ENGINE_ADAPTERS.ChatGPT({
      prompt: "q",
      env: fakes.env,
      signal: controller.signal,
    }).catch((e: unknown) => e);
    expect((err as EngineError).code).toBe("ENGINE_TIMEOUT");
    expect((err as EngineError).options.attempts).toBe(1);
    expect(performance.now() - started).toBeLessThan(4_000);
  });
});

describe("engine list", () => {
  test("names each engine, whether it is configured, its model and the variable to set", () => {
    const engines = listEngines({ OPENAI_API_KEY: "k", GEMINI_MODEL: "gemini-custom" });
    expect(engines).toEqual([
      { name: "ChatGPT", configured: true, model: DEFAULT_MODELS.ChatGPT, envVar: "OPENAI_API_KEY" },
      {
        name: "Perplexity",
        configured: false,
        model: DEFAULT_MODELS.Perplexity,
        envVar: "PERPLEXITY_API_KEY",
      },
      { name: "Claude", configured: false, model: DEFAULT_MODELS.Claude, envVar: "ANTHROPIC_API_KEY" },
      { name: "Gemini", configured: false, model: "gemini-custom", envVar: "GEMINI_API_KEY" },
    ]);
    expect(
      findUnconfiguredEngines(["ChatGPT", "Claude"], { OPENAI_API_KEY: "k", ANTHROPIC_API_KEY: " " }),
    ).toEqual([{ name: "Claude", envVar: "ANTHROPIC_API_KEY" }]);
  });

  test("availability names the missing engines, their variables and the engines to pass instead", () => {
    expect(checkEngineAvailability(["ChatGPT"], { OPENAI_API_KEY: "k" })).toEqual({ ok: true });
    const refused = checkEngineAvailability(["ChatGPT", "Perplexity", "Claude", "Gemini"], {
      OPENAI_API_KEY: "k",
      GEMINI_API_KEY: "g",
    });
    expect(refused).toMatchObject({ ok: false, configured: ["ChatGPT", "Gemini"] });
    expect(refused.ok || refused.reason).toBe(
      'Perplexity (PERPLEXITY_API_KEY), Claude (ANTHROPIC_API_KEY) are not configured on this service. Configured engines: ChatGPT, Gemini; pass engines: ["ChatGPT","Gemini"].',
    );
    const none = checkEngineAvailability(["Claude"], {});
    expect(none.ok || none.reason).toBe(
      "Claude (ANTHROPIC_API_KEY) is not configured on this service. No AI engine is configured on this service.",
    );
  });

  test("an unconfigured engine fails before any request", async () => {
    const err = await ENGINE_ADAPTERS.Claude({ prompt: "q", env: {} }).catch((e: unknown) => e);
    expect((err as EngineError).code).toBe("ENGINE_NOT_CONFIGURED");
    expect((err as EngineError).message).toContain("ANTHROPIC_API_KEY");
  });
});
