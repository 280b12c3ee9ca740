import { createHash } from "node:crypto";
import { sql } from "drizzle-orm";
import { PgTransaction } from "drizzle-orm/pg-core";
import type { DbOrTx } from "@/lib/db/client";
import { rowsOf } from "@/lib/db/rows";
import { LruCache } from "../lru-cache";
import { pgArrayLiteral } from "./prepare-visit";

/** What a visit stores once per distinct combination (visit_agents) instead of in its own row. */
export interface AgentFields {
  userAgent: string;
  botPurpose: string | null;
  citationReason: string | null;
  isDemo: boolean;
}

/** Agents' ids a process remembers per database; an agent row is never changed or deleted once committed. */
const CACHE_CAPACITY = 20_000;
/** Per database handle: tests and tools open several databases in one process, each with its own ids. */
const caches = new WeakMap<object, LruCache<string, number>>();

/**
 * The agent's identity in the process's cache: the purpose and the reason (closed vocabularies without "/"), "d"
 * for demo traffic, then the user agent itself (last, so the split is unambiguous whatever it holds).
 */
function cacheKey(a: AgentFields): string {
  return `${a.botPurpose ?? ""}/${a.citationReason ?? ""}/${a.isDemo ? "d" : ""}/${a.userAgent}`;
}

/** The agent's key as stored, the same as the SQL function visit_agent_key: the user agent as its MD5. */
export function agentKey(a: AgentFields): string {
  const md5 = createHash("md5").update(a.userAgent, "utf8").digest("hex");
  return `${a.botPurpose ?? ""}/${a.citationReason ?? ""}/${a.isDemo ? "d" : ""}/${md5}`;
}

/**
 * The ids of a batch's agents, in the order given, from the process's cache where it has them; the others are
 * looked up, and stored when new, through `tx` (the batch's transaction: a batch that rolls back takes its new
 * agents with it). Returns the ids and a function that remembers the looked-up ones, to call once the batch has
 * committed. `owner` is the database handle the batch runs on; in a caller's transaction (which could still roll
 * back) nothing is remembered.
 */
export async function resolveAgentIds(
  owner: DbOrTx,
  tx: DbOrTx,
  agents: readonly AgentFields[],
): Promise<{ ids: number[]; remember: () => void }> {
  const cache = owner instanceof PgTransaction ? undefined : cacheOf(owner);
  const ids = new Array<number>(agents.length);
  const missing: { at: number; key: string; cacheKey: string; agent: AgentFields }[] = [];
  for (let i = 0; i < agents.length; i++) {
    const agent = agents[i]!;
    const ck = cacheKey(agent);
    const id = cache?.get(ck);
    if (id !== undefined) ids[i] = id;
    else missing.push({ at: i, key: agentKey(agent), cacheKey: ck, agent });
  }
  if (missing.length === 0) return { ids, remember: () => {} };
  const found = await lookUpAgents(tx, missing);
  for (const m of missing) {
    const id = found.get(m.key);
    if (id === undefined) throw new Error(`visit agent ${m.key} was neither found nor stored`);
    ids[m.at] = id;
  }
  return {
    ids,
    remember: () => {
      if (cache) for (const m of missing) cache.set(m.cacheKey, ids[m.at]!);
    },
  };
}

/**
 * The ids of a batch's agents when the process's cache holds every one of them (none to store), else null; always
 * null inside a caller's transaction, whose new agents could still roll back.
 */
export function cachedAgentIds(owner: DbOrTx, agents: readonly AgentFields[]): number[] | null {
  if (owner instanceof PgTransaction) return null;
  const cache = cacheOf(owner);
  const ids = new Array<number>(agents.length);
  for (let i = 0; i < agents.length; i++) {
    const id = cache.get(cacheKey(agents[i]!));
    if (id === undefined) return null;
    ids[i] = id;
  }
  return ids;
}

function cacheOf(db: object): LruCache<string, number> {
  let cache = caches.get(db);
  if (cache === undefined) {
    cache = new LruCache(CACHE_CAPACITY);
    caches.set(db, cache);
  }
  return cache;
}

/**
 * Stores the agents that are new (in key order, so concurrent batches lock alike) and returns every id by key. An
 * agent another transaction commits while this statement runs is neither inserted (its key conflicts) nor seen (the
 * statement's snapshot is older): a second read, with a snapshot of its own, finds it.
 */
async function lookUpAgents(
  tx: DbOrTx,
  missing: readonly { key: string; agent: AgentFields }[],
): Promise<Map<string, number>> {
  const keys = missing.map((m) => m.key);
  const rows = rowsOf<{ id: number; key: string }>(
    await tx.execute(sql`
      with input as (
        select * from unnest(
          ${pgArrayLiteral(keys)}::text[], ${pgArrayLiteral(missing.map((m) => m.agent.userAgent))}::text[],
          ${pgArrayLiteral(missing.map((m) => m.agent.botPurpose))}::text[],
          ${pgArrayLiteral(missing.map((m) => m.agent.citationReason))}::text[],
          ${pgArrayLiteral(missing.map((m) => m.agent.isDemo))}::boolean[]
        ) as x(key, user_agent, bot_purpose, citation_reason, is_demo)
      ),
      ins as (
        insert into visit_agents (key, user_agent, bot_purpose, citation_reason, is_demo)
        -- Only the absent ones: a conflicting row would still draw an id from the sequence.
        select key, user_agent, bot_purpose, citation_reason, is_demo from input i
        where not exists (select 1 from visit_agents a where a.key = i.key)
        order by key collate "C"
        on conflict (key) do nothing
        returning id, key
      )
      select id, key from ins
      union all
      select a.id, a.key from visit_agents a where a.key in (select key from input)`),
  );
  const found = new Map(rows.map((r) => [r.key, Number(r.id)]));
  const late = keys.filter((k) => !found.has(k));
  if (late.length > 0) {
    for (const r of rowsOf<{ id: number; key: string }>(
      await tx.execute(
        sql`select id, key from visit_agents where key = any(${pgArrayLiteral(late)}::text[])`,
      ),
    ))
      found.set(r.key, Number(r.id));
  }
  return found;
}
