import { eq } from "drizzle-orm";
import { describe, expect } from "vitest";
import type { DbHandle } from "@/lib/db/client";
import { jobs, visibilityObservations } from "@/lib/db/schema";
import { createTestAccount } from "@/test/accounts";
import { dbTest } from "@/test/support/fixtures";
import {
  purgeObservations,
  readLatestObservations,
  readVisibility,
  recordObservations,
} from "./observations";
import type { EngineResult } from "./schemas";

const test = dbTest;
let handle: DbHandle;
test.beforeAll(async ({ handle: _handle }) => {
  handle = _handle;
});

function entry(
  engine: EngineResult["engine"],
  cited: boolean,
  position: number,
  error = false,
): EngineResult {
  return {
    engine,
    cited,
    citedUrls: cited ? ["https://acme.com/"] : [],
    mentionPosition: position,
    sentiment: position > 0 ? "positive" : "neutral",
    answer: "…",
    sources: [],
    retrieved: [],
    queries: [],
    model: "m",
    ...(error ? { error: { code: "ENGINE_UNAVAILABLE", message: "down" } } : {}),
  };
}

describe("visibility observations", () => {
  test("recorded per engine that answered, read back as daily and overall rates", async () => {
    const { db } = handle;
    const { accountId } = await createTestAccount(db);
    const [job] = await db
      .insert(jobs)
      .values({ accountId, tool: "ai-citation-check", input: {}, creditsCharged: 300 })
      .returning();
    const now = new Date("2026-11-23T12:00:00Z");
    const yesterday = new Date("2026-11-22T09:00:00Z");

    const recorded = await db.transaction((tx) =>
      recordObservations(tx, {
        accountId,
        jobId: job!.id,
        domain: "acme.com",
        prompt: "best tool?",
        result: {
          results: [entry("ChatGPT", true, 1), entry("Claude", false, 2), entry("Gemini", false, 0, true)],
        },
        observedAt: yesterday,
      }),
    );
    expect(recorded).toBe(2);
    await recordObservations(db, {
      accountId,
      jobId: null,
      domain: "acme.com",
      prompt: "another",
      result: entry("ChatGPT", false, 0),
      observedAt: now,
    });
    // Another domain and another account stay out of the report.
    await recordObservations(db, {
      accountId,
      jobId: null,
      domain: "rival.io",
      prompt: "p",
      result: entry("ChatGPT", true, 1),
      observedAt: now,
    });
    const other = await createTestAccount(db);
    await recordObservations(db, {
      accountId: other.accountId,
      jobId: null,
      domain: "acme.com",
      prompt: "p",
      result: entry("ChatGPT", true, 1),
      observedAt: now,
    });

    const report = await readVisibility(db, { accountId, domain: "acme.com", days: 30, now });
    expect(report.overall).toEqual({
      checks: 3,
      citationRate: 0.3333,
      mentionRate: 0.6667,
      series: [
        { day: "2026-11-22", checks: 2, citationRate: 0.5, mentionRate: 1 },
        { day: "2026-11-23", checks: 1, citationRate: 0, mentionRate: 0 },
      ],
    });
    const chatgpt = report.engines.find((e) => e.engine === "ChatGPT")!;
    expect(chatgpt).toMatchObject({ checks: 2, citationRate: 0.5, mentionRate: 0.5 });
    expect(chatgpt.series.map((p) => p.day)).toEqual(["2026-11-22", "2026-11-23"]);
    expect(report.engines.find((e) => e.engine === "Gemini")).toEqual({
      engine: "Gemini",
      checks: 0,
      citationRate: 0,
      mentionRate: 0,
      series: [],
    });
    expect(report.engines.map((e) => e.engine)).toEqual(["ChatGPT", "Perplexity", "Claude", "Gemini"]);

    const oneDay = await readVisibility(db, { accountId, domain: "acme.com", days: 1, now });
    expect(oneDay.overall.checks).toBe(1);

    const latest = await readLatestObservations(db, { accountId, domain: "acme.com", limit: 2 });
    expect(latest.map((o) => [o.prompt, o.engine, o.position])).toEqual([
      ["another", "ChatGPT", 0],
      ["best tool?", "Claude", 2],
    ]);
    expect(latest[1]!.jobId).toBe(job!.id);

    // The job's purge clears the link, not the observation.
    await db.delete(jobs).where(eq(jobs.id, job!.id));
    const rows = await db
      .select()
      .from(visibilityObservations)
      .where(eq(visibilityObservations.accountId, accountId));
    expect(rows.filter((r) => r.prompt === "best tool?").map((r) => r.jobId)).toEqual([null, null]);
  });

  test("the database refuses an observation whose mention and position disagree", async () => {
    const { db } = handle;
    const { accountId } = await createTestAccount(db);
    await expect(
      db.insert(visibilityObservations).values({
        accountId,
        domain: "acme.com",
        engine: "ChatGPT",
        prompt: "p",
        cited: false,
        mentioned: true,
        position: 0,
        sentiment: "neutral",
      }),
    ).rejects.toThrow();
  });

  test("purge removes observations older than 13 months only", async () => {
    const { db } = handle;
    const { accountId } = await createTestAccount(db);
    const now = new Date("2026-11-23T00:00:00Z");
    const base = { accountId, jobId: null, domain: "old.com", prompt: "p", result: entry("Claude", true, 1) };
    await recordObservations(db, { ...base, observedAt: new Date("2025-10-22T00:00:00Z") });
    await recordObservations(db, { ...base, observedAt: new Date("2025-10-24T00:00:00Z") });
    expect(await purgeObservations(db, now)).toBe(1);
    const left = await db
      .select()
      .from(visibilityObservations)
      .where(eq(visibilityObservations.domain, "old.com"));
    expect(left.map((r) => r.observedAt.toISOString())).toEqual(["2025-10-24T00:00:00.000Z"]);
  });
});
