import { describe, expect, test } from "vitest";
import { DuplicateMemory, encodeVisitBatch, pageOf, pgArrayLiteral, prepareVisit } from "./record-visits";

const DOMAIN = "00000000-0000-4000-8000-000000000000";
const at = new Date("2026-11-20T10:00:00Z");
const CHROME =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
const GPTBOT =
  "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.1; +https://openai.com/gptbot)";

describe("prepareVisit", () => {
  test("a bot visit keeps its classification and address", () => {
    const row = prepareVisit(
      DOMAIN,
      { occurredAt: at, path: "/a", userAgent: GPTBOT, ip: "203.0.113.1" },
      "k",
    );
    expect(row).toMatchObject({
      botName: "GPTBot",
      botPurpose: "training",
      isAiBot: true,
      ip: "203.0.113.1",
    });
    expect(row?.citationEngine).toBeNull();
  });

  test("a person nobody referred is not stored", () => {
    expect(
      prepareVisit(DOMAIN, { occurredAt: at, path: "/", userAgent: CHROME, ip: "203.0.113.1" }, "k"),
    ).toBeNull();
  });

  const cited: [string, { path: string; referrer?: string }, string, string][] = [
    ["chatgpt.com referral", { path: "/", referrer: "https://chatgpt.com/" }, "ChatGPT", "referral"],
    ["utm_source=chatgpt.com", { path: "/x?utm_source=chatgpt.com" }, "ChatGPT", "utm"],
    [
      "perplexity referral",
      { path: "/", referrer: "https://www.perplexity.ai/search/q" },
      "Perplexity",
      "referral",
    ],
  ];
  for (const [name, v, engine, reason] of cited) {
    test(`a person referred by AI is a citation without an address: ${name}`, () => {
      const row = prepareVisit(DOMAIN, { occurredAt: at, userAgent: CHROME, ip: "198.51.100.1", ...v }, "k");
      expect(row).toMatchObject({ botName: null, citationEngine: engine, citationReason: reason, ip: null });
    });
  }

  test("NUL characters are dropped (Postgres text cannot hold them)", () => {
    const row = prepareVisit(
      DOMAIN,
      { occurredAt: at, path: "/a\u0000b", userAgent: `${GPTBOT}\u0000` },
      "k",
    );
    expect(row?.path).toBe("/ab");
    expect(row?.userAgent).toBe(GPTBOT);
  });

  test("demo rows are flagged", () => {
    expect(
      prepareVisit(DOMAIN, { occurredAt: at, path: "/", userAgent: GPTBOT }, "k", { isDemo: true })?.isDemo,
    ).toBe(true);
  });
});

test("pageOf drops the query string", () => {
  expect(pageOf("/a?b=1")).toBe("/a");
  expect(pageOf("/a")).toBe("/a");
  expect(pageOf("/?")).toBe("/");
});

describe("encodeVisitBatch", () => {
  const OTHER = "11111111-1111-4111-8111-111111111111";
  const visit = (over: Partial<NonNullable<ReturnType<typeof prepareVisit>>>, path = "/") => ({
    ...prepareVisit(DOMAIN, { occurredAt: at, path, userAgent: GPTBOT, ip: "203.0.113.1" }, `k${path}`)!,
    verification: "unknown" as const,
    ...over,
  });

  test("visits that share every profile field share one profile; each keeps its own time, path and key", () => {
    const rows = [visit({}, "/a"), visit({ ip: "203.0.113.2", status: 404 }, "/b"), visit({}, "/c")];
    const { profiles, agents, visits } = encodeVisitBatch(rows);
    expect(profiles.botName).toBe(pgArrayLiteral(["GPTBot"]));
    expect(agents).toEqual([
      { userAgent: GPTBOT, botPurpose: "training", citationReason: null, isDemo: false },
    ]);
    expect(visits.profile).toBe("{1,1,1}");
    expect(visits.path).toBe('{"/a","/b","/c"}');
    expect(visits.ip).toBe('{"203.0.113.1","203.0.113.2","203.0.113.1"}');
    expect(visits.status).toBe("{NULL,404,NULL}");
    expect(visits.eventKey).toBe('{"k/a","k/b","k/c"}');
  });

  test("any profile field that differs makes another profile: domain, referrer null or empty, verdicts", () => {
    const rows = [
      visit({}),
      visit({ domainId: OTHER }),
      visit({ referrer: "" }),
      visit({ referrer: null }),
      visit({ verification: "verified" }),
      visit({ isDemo: true }),
      visit({ domainId: OTHER }),
    ].map((r, i) => ({ ...r, eventKey: `k${i}` }));
    const { profiles, agents, visits } = encodeVisitBatch(rows);
    // Sent by domain (DOMAIN's five visits, then OTHER's two), each domain's in the order of their keys.
    expect(visits.profile).toBe("{1,2,1,3,4,5,5}");
    expect(profiles.domainId).toBe(pgArrayLiteral([DOMAIN, DOMAIN, DOMAIN, DOMAIN, OTHER]));
    expect(profiles.referrer).toBe('{NULL,"",NULL,NULL,NULL}');
    expect(profiles.verification).toBe('{"unknown","unknown","verified","unknown","unknown"}');
    expect(agents.map((a) => a.isDemo)).toEqual([false, false, false, true, false]);
  });

  test("visits are sent in one total order, by domain then event key in UTF-16 code units, whatever order they came in", () => {
    const keyed = (domainId: string, key: string) => ({
      ...visit({ domainId }),
      eventKey: key,
      path: `/${key}`,
    });
    const keys = ["z", "\u{1F600}", "b", "B", "\uFFFD", "a", "é", "a1", ""];
    const rows = [...keys.map((k) => keyed(OTHER, k)), ...keys.map((k) => keyed(DOMAIN, k))].reverse();
    const expected = ["", "B", "a", "a1", "b", "z", "é", "\u{1F600}", "\uFFFD"];
    const { visits } = encodeVisitBatch(rows);
    expect(visits.eventKey).toBe(pgArrayLiteral([...expected, ...expected]));
    expect(visits.path).toBe(pgArrayLiteral([...expected, ...expected].map((k) => `/${k}`)));
    const { profiles, domains } = encodeVisitBatch(rows);
    expect(profiles.domainId).toBe(pgArrayLiteral([DOMAIN, OTHER]));
    expect(domains).toBe(`${DOMAIN},${OTHER}`);
    // The same set in any order encodes the same (so every batch locks its keys in the same order).
    expect(encodeVisitBatch([...rows].sort(() => 0.5 - Math.random()))).toEqual(encodeVisitBatch(rows));
  });

  test("an event repeated in the batch is sent once, as it came first; the same key on another domain is another event", () => {
    const rows = [
      { ...visit({}, "/first"), eventKey: "dup" },
      { ...visit({}, "/only"), eventKey: "solo" },
      { ...visit({ status: 500 }, "/second"), eventKey: "dup" },
      { ...visit({ domainId: OTHER }, "/elsewhere"), eventKey: "dup" },
      { ...visit({}, "/third"), eventKey: "dup" },
    ];
    const { visits } = encodeVisitBatch(rows);
    expect(visits.eventKey).toBe(pgArrayLiteral(["dup", "solo", "dup"]));
    expect(visits.path).toBe(pgArrayLiteral(["/first", "/only", "/elsewhere"]));
    expect(visits.status).toBe("{NULL,NULL,NULL}");
    expect(visits.profile.split(",")).toHaveLength(3);
  });
});

test("pgArrayLiteral quotes every text and escapes quotes and backslashes; null is NULL", () => {
  expect(pgArrayLiteral(['a"b', "c\\d", "NULL", "", null, 3, true])).toBe(
    '{"a\\"b","c\\\\d","NULL","",NULL,3,true}',
  );
});

test("pgArrayLiteral: a column that is plain text or small numbers at first and not further on", () => {
  expect(pgArrayLiteral([])).toBe("{}");
  expect(pgArrayLiteral(["a", "b"])).toBe('{"a","b"}');
  expect(pgArrayLiteral(["a", 'b"c', "d\\e"])).toBe('{"a","b\\"c","d\\\\e"}');
  expect(pgArrayLiteral(["a", null, ""])).toBe('{"a",NULL,""}');
  expect(pgArrayLiteral(["a", 1, true])).toBe('{"a",1,true}');
  expect(pgArrayLiteral([1, -2, 0])).toBe("{1,-2,0}");
  expect(pgArrayLiteral([1, 2.5, null, 3_000_000_000, false])).toBe("{1,2.5,NULL,3000000000,false}");
});

test("pgArrayLiteral writes every number as String() does, times in milliseconds included", () => {
  const edges = [
    2 ** 31 - 1,
    2 ** 31,
    2 ** 31 + 1,
    1e15 - 1,
    1e15,
    2 ** 53,
    2 ** 53 + 2,
    1e21,
    0,
    -0,
    -1.7e12,
  ];
  const random = Array.from({ length: 20_000 }, (_, i) =>
    i % 3 === 0 ? Math.floor(Math.random() * 1e15) : i % 3 === 1 ? 1.7e12 + i : Math.random() * 1e13,
  );
  const values = [...edges, ...random, 1_700_000_000_000, 1_700_000_999_999, 1_700_000_000_001.5];
  expect(pgArrayLiteral(values)).toBe(`{${values.map((v) => String(v)).join(",")}}`);
});

describe("DuplicateMemory: which form a batch's first attempt uses", () => {
  test("plain until a batch of the same domains holds duplicates; plain again after a batch without", () => {
    const memory = new DuplicateMemory();
    expect(memory.skipsFirst("{a}")).toBe(false);
    memory.record("{a}", false);
    expect(memory.skipsFirst("{a}")).toBe(false);
    memory.record("{a}", true);
    expect(memory.skipsFirst("{a}")).toBe(true);
    // Other domains, or the same with another, are batches of their own.
    expect(memory.skipsFirst("{b}")).toBe(false);
    expect(memory.skipsFirst("{a,b}")).toBe(false);
    memory.record("{a}", true);
    expect(memory.skipsFirst("{a}")).toBe(true);
    memory.record("{a}", false);
    expect(memory.skipsFirst("{a}")).toBe(false);
  });

  test("holds at most its capacity, forgetting the domains that held duplicates longest ago", () => {
    const memory = new DuplicateMemory(3);
    for (const key of ["1", "2", "3"]) memory.record(key, true);
    memory.record("1", true); // seen again: now the newest
    memory.record("4", true);
    expect(["1", "2", "3", "4"].map((k) => memory.skipsFirst(k))).toEqual([true, false, true, true]);
  });
});
