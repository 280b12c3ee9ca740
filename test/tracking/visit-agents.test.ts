// A visit's user agent, purpose, citation reason and demo flag are stored once per distinct combination
// (visit_agents) and the visit holds its agent's id: the key ingest computes is the one the SQL function (and so
// migration 0036) computes, each agent is stored once whichever batches meet it (concurrent ones included), and an
// agent stored by a batch that rolled back is never taken for stored afterwards.
import { eq, sql } from "drizzle-orm";
import { expect } from "vitest";
import { registerDomain } from "@/lib/accounts/domains";
import type { DbHandle } from "@/lib/db/client";
import { rowsOf } from "@/lib/db/rows";
import { type NewVisit, visitAgents, visits } from "@/lib/db/schema";
import { prepareVisit, recordVisits } from "@/lib/tracking/ingest/record-visits";
import { type AgentFields, agentKey } from "@/lib/tracking/ingest/visit-agents";
import { dbTest as test } from "@/test/support/fixtures";
import { createTestAccount } from "../accounts";
import { UA } from "./helpers";

let handle: DbHandle;
test.beforeAll(({ handle: fileDb }) => {
  handle = fileDb;
});

let n = 0;
async function newDomain() {
  const acct = await createTestAccount(handle.db);
  return registerDomain(handle.db, acct.accountId, `agents${++n}.example`);
}

/** Visits of `domainId`, one per user agent, a minute apart. */
function visitsOf(domainId: string, userAgents: string[], tag: string): NewVisit[] {
  return userAgents.map(
    (userAgent, i) =>
      prepareVisit(
        domainId,
        { occurredAt: new Date(Date.now() - (i + 1) * 60_000), path: `/${tag}-${i}`, userAgent },
        `id:${tag}-${i}`,
      )!,
  );
}

/** Each stored visit of a domain with its agent's user agent, by path. */
async function storedAgents(domainId: string): Promise<Record<string, string>> {
  const rows = await handle.db
    .select({ path: visits.path, userAgent: visitAgents.userAgent })
    .from(visits)
    .innerJoin(visitAgents, eq(visitAgents.id, visits.agentId))
    .where(eq(visits.domainId, domainId));
  return Object.fromEntries(rows.map((r) => [r.path, r.userAgent]));
}

async function agentRows(userAgent: string): Promise<number> {
  const [row] = rowsOf<{ n: number }>(
    await handle.db.execute(sql`select count(*)::int as n from visit_agents where user_agent = ${userAgent}`),
  );
  return row!.n;
}

test("ingest's key for an agent is the SQL function's, whatever the user agent holds", async () => {
  const agents: AgentFields[] = [
    { userAgent: UA.gptbot, botPurpose: "ai_training", citationReason: null, isDemo: false },
    { userAgent: UA.chrome, botPurpose: null, citationReason: "referral", isDemo: false },
    { userAgent: UA.chrome, botPurpose: null, citationReason: "utm", isDemo: true },
    {
      userAgent: 'quote " backslash \\ newline \n tab \t',
      botPurpose: "search",
      citationReason: null,
      isDemo: false,
    },
    { userAgent: "café ✓ 😀 Ω", botPurpose: null, citationReason: "user_fetch", isDemo: true },
    { userAgent: "", botPurpose: null, citationReason: null, isDemo: false },
  ];
  for (const a of agents) {
    const [row] = rowsOf<{ key: string }>(
      await handle.db.execute(
        sql`select visit_agent_key(${a.userAgent}, ${a.botPurpose}::text, ${a.citationReason}::text, ${a.isDemo}) as key`,
      ),
    );
    expect(row!.key).toBe(agentKey(a));
  }
  // Distinct fields, distinct keys.
  expect(new Set(agents.map(agentKey)).size).toBe(agents.length);
});

test("an agent is stored once however many visits and batches name it; each visit keeps its own", async () => {
  const domain = await newDomain();
  const ua = `AgentsOnce/1.0 (+https://agents.example/${n}; compatible; GPTBot/1.1)`;
  expect(await recordVisits(handle.db, visitsOf(domain.id, [ua, ua, UA.googlebot], "a"))).toBe(3);
  expect(await recordVisits(handle.db, visitsOf(domain.id, [ua, UA.googlebot], "b"))).toBe(2);
  expect(await agentRows(ua)).toBe(1);
  expect(await storedAgents(domain.id)).toEqual({
    "/a-0": ua,
    "/a-1": ua,
    "/a-2": UA.googlebot,
    "/b-0": ua,
    "/b-1": UA.googlebot,
  });
});

test("an agent first met in a transaction that rolls back is stored again by the next batch that meets it", async () => {
  const domain = await newDomain();
  const ua = `RolledBack/2.0 (compatible; ClaudeBot/1.0; +https://agents.example/${n})`;
  await expect(
    handle.db.transaction(async (tx) => {
      expect(await recordVisits(tx, visitsOf(domain.id, [ua], "gone"))).toBe(1);
      throw new Error("the caller gives up");
    }),
  ).rejects.toThrow("the caller gives up");
  expect(await agentRows(ua)).toBe(0);
  expect(await recordVisits(handle.db, visitsOf(domain.id, [ua], "kept"))).toBe(1);
  expect(await storedAgents(domain.id)).toEqual({ "/kept-0": ua });
});

test("an agent first met in a batch that fails is stored by the next batch that meets it", async () => {
  const domain = await newDomain();
  const gone = await newDomain();
  const ua = `FailedBatch/3.0 (compatible; PerplexityBot/1.0; +https://agents.example/${n})`;
  await handle.db.execute(sql`delete from domains where id = ${gone.id}`);
  // A domain removed while its batch is stored: the whole batch is refused, its new agent with it.
  await expect(
    recordVisits(handle.db, [...visitsOf(domain.id, [ua], "x"), ...visitsOf(gone.id, [ua], "y")]),
  ).rejects.toMatchObject({ code: "FORBIDDEN_SCOPE" });
  expect(await agentRows(ua)).toBe(0);
  expect(await recordVisits(handle.db, visitsOf(domain.id, [ua], "z"))).toBe(1);
  expect(await storedAgents(domain.id)).toEqual({ "/z-0": ua });
});

test("a batch naming a removed domain stores nothing, when its agents are known as when they are new", async () => {
  const domain = await newDomain();
  const gone = await newDomain();
  const ua = `KnownAgent/4.0 (compatible; GPTBot/1.2; +https://agents.example/${n})`;
  // Met once: the process knows the agent, so the next batch is one statement committed on its own.
  expect(await recordVisits(handle.db, visitsOf(domain.id, [ua], "known"))).toBe(1);
  await handle.db.execute(sql`delete from domains where id = ${gone.id}`);
  await expect(
    recordVisits(handle.db, [
      ...visitsOf(domain.id, [ua, UA.googlebot], "x"),
      ...visitsOf(gone.id, [ua], "y"),
    ]),
  ).rejects.toMatchObject({ code: "FORBIDDEN_SCOPE" });
  expect(await storedAgents(domain.id)).toEqual({ "/known-0": ua });
  const [rollups] = rowsOf<{ bots: number; pages: number }>(
    await handle.db.execute(sql`
      select (select coalesce(sum(visits), 0)::int from tracking_daily_bots where domain_id = ${domain.id}) as bots,
             (select coalesce(sum(visits), 0)::int from tracking_page_counts where domain_id = ${domain.id}) as pages`),
  );
  expect(rollups).toEqual({ bots: 1, pages: 1 });
});

test("concurrent batches meeting the same new agents store each once, and every visit finds its agent", async () => {
  const domain = await newDomain();
  const fresh = Array.from({ length: 6 }, (_, i) => `Concurrent/${i} (compatible; Bytespider; agents${n})`);
  const results = await Promise.all(
    Array.from({ length: 6 }, (_, b) =>
      recordVisits(handle.db, visitsOf(domain.id, b % 2 ? fresh : [...fresh].reverse(), `c${b}`)),
    ),
  );
  expect(results).toEqual([6, 6, 6, 6, 6, 6]);
  for (const ua of fresh) expect(await agentRows(ua)).toBe(1);
  expect(Object.keys(await storedAgents(domain.id))).toHaveLength(36);
});
