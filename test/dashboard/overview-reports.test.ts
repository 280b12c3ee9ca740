// The overview's checklist and tracking figures, the bots page's period figures and the citations page's top
// pages and trend, from visits ingested through the real tracking pipeline.

import { eq } from "drizzle-orm";
import { describe, expect } from "vitest";
import { grantPendingSignupBonus } from "@/lib/accounts/accounts";
import { registerDomain } from "@/lib/accounts/domains";
import { getBotPeriod } from "@/lib/dashboard/bot-period";
import { getCitationPeriod } from "@/lib/dashboard/citation-period";
import { type Actor, getActor } from "@/lib/dashboard/members";
import { getOnboarding } from "@/lib/dashboard/onboarding";
import { signUp } from "@/lib/dashboard/signup";
import { launchTool } from "@/lib/dashboard/tools";
import type { Db, DbHandle } from "@/lib/db/client";
import { domains } from "@/lib/db/schema";
import { ingestEvents } from "@/lib/tracking/ingest/ingest-visits";
import { dbTest } from "@/test/support/fixtures";

const test = dbTest;
let handle: DbHandle;
let db: Db;
let owner: Actor;
const NOW = new Date();
const GPTBOT =
  "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.1; +https://openai.com/gptbot)";
const BROWSER = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 Chrome/131.0.0.0 Safari/537.36";
const daysAgo = (d: number) => new Date(NOW.getTime() - d * 86_400_000).toISOString();

test.beforeAll(async ({ handle: _handle }) => {
  handle = _handle;
  db = handle.db;
  const { user } = await signUp(db, {
    email: `overview-${process.pid}@example.com`,
    password: "correct horse battery",
  });
  // The sign-up credits wait for the address to be verified (the email flow has its own tests).
  await db.transaction((tx) => grantPendingSignupBonus(tx, user.id));
  owner = (await getActor(db, user.id))!;
});

describe("onboarding", () => {
  test("each step ticks as the account gets there; tracking figures appear with the first event", async () => {
    let o = await getOnboarding(db, owner.accountId, NOW);
    expect(o).toMatchObject({
      domains: [],
      firstEventReceived: false,
      verified: false,
      auditRun: false,
      done: false,
    });
    expect(o.tracking).toBeNull();

    const domain = await registerDomain(db, owner.accountId, "onboard.example.com");
    o = await getOnboarding(db, owner.accountId, NOW);
    expect(o.domains).toEqual([{ hostname: "onboard.example.com", verified: false }]);
    expect(o.firstEventReceived).toBe(false);

    await ingestEvents(db, owner.accountId, {
      events: [
        // Two AI-bot visits 10 days ago, three in the last week: +50 %.
        { domain: "onboard.example.com", path: "/a", userAgent: GPTBOT, timestamp: daysAgo(10) },
        { domain: "onboard.example.com", path: "/b", userAgent: GPTBOT, timestamp: daysAgo(9) },
        { domain: "onboard.example.com", path: "/a", userAgent: GPTBOT, timestamp: daysAgo(2) },
        { domain: "onboard.example.com", path: "/c", userAgent: GPTBOT, timestamp: daysAgo(1) },
        { domain: "onboard.example.com", path: "/a", userAgent: GPTBOT, timestamp: daysAgo(0) },
        {
          domain: "onboard.example.com",
          path: "/pricing",
          userAgent: BROWSER,
          referrer: "https://chatgpt.com/",
          timestamp: daysAgo(1),
        },
      ],
    });
    o = await getOnboarding(db, owner.accountId, NOW);
    expect(o.firstEventReceived).toBe(true);
    expect(o.tracking).toMatchObject({ aiBotVisits: 5, citations: 1, aiBotTrend: 50, citationTrend: null });
    expect(o.tracking?.series).toHaveLength(30);

    await db
      .update(domains)
      .set({ verifiedAt: new Date(), verificationMethod: "dns_txt" })
      .where(eq(domains.id, domain.id));
    const launched = await launchTool(db, owner, "audits", { url: "https://example.com/" });
    expect(launched.ok).toBe(true);
    o = await getOnboarding(db, owner.accountId, NOW);
    expect(o).toMatchObject({ verified: true, auditRun: true, done: true });
  });
});

describe("bots and citations by period", () => {
  test("the cards and top bots follow the selected period; citations list top pages and a daily trend", async () => {
    const [row] = await db.select().from(domains).where(eq(domains.hostname, "onboard.example.com"));
    const week = await getBotPeriod(db, row!.id, 7, NOW);
    const month = await getBotPeriod(db, row!.id, 30, NOW);
    expect(week).toMatchObject({ totalVisits: 3, aiBotVisits: 3, uniqueBots: 1 });
    expect(month).toMatchObject({ totalVisits: 5, aiBotVisits: 5, uniqueBots: 1 });
    expect(month.topBots[0]).toMatchObject({ name: "GPTBot", purpose: "training", isAIBot: true, visits: 5 });
    // No IP was sent, so nothing was confirmed by OpenAI's published ranges and nothing is spoofed.
    expect(month.topBots[0]).toMatchObject({ verified: 0, unverified: 5, spoofed: 0 });

    const cites = await getCitationPeriod(db, row!.id, 7, NOW);
    expect(cites.topPages).toEqual([{ path: "/pricing", citations: 1, engines: ["ChatGPT"] }]);
    expect(cites.trend).toHaveLength(7);
    expect(cites.trend.reduce((s, d) => s + d.citations, 0)).toBe(1);
  });
});
