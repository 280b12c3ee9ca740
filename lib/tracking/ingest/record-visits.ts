import { inArray } from "drizzle-orm";
import type { DbOrTx, Tx } from "@/lib/db/client";
import { isDeadlock, isUniqueViolation } from "@/lib/db/errors";
import { domains, type NewVisit } from "@/lib/db/schema";
import { accountsListening, domainsListening, emitWebhookEvent } from "@/lib/webhooks/outbox";
import { rawVisits } from "../raw-visits/store";
import { encodeVisitBatch } from "./encode-visits";
import { cachedAgentIds, resolveAgentIds } from "./visit-agents";
import type { FirstCitation } from "./visit-statement";

export { pageOf, pgArrayLiteral, prepareVisit } from "./prepare-visit";
export { encodeVisitBatch };

/**
 * Stores prepared visits and updates the rollups in ONE statement (so one transaction): the rows travel as array
 * parameters (encodeVisitBatch), unnested into a multi-row insert (a 15 000-parameter insert costs more to build
 * than the database work), the batch's domains are locked once each and the batch refused (FORBIDDEN_SCOPE,
 * nothing stored) if one is gone, visits whose event key is already stored are skipped (retries, replays), and the
 * rollups (daily bots, pages, daily citations, cited pages) are upserted set-wise from the rows actually
 * inserted, grouped so each rollup row is touched once and ordered so concurrent batches lock in the same
 * order. Returns how many visits were new.
 */
export async function recordVisits(db: DbOrTx, rows: NewVisit[]): Promise<number> {
  return storeVisitBatch(db, rows.length === 0 ? null : encodeVisitBatch(rows));
}

/**
 * Which form of the insert a batch's first attempt uses. The plain insert (no ON CONFLICT) is cheaper: an
 * arbiter index costs each row a second search of the primary key (a B-tree scan before the insert, then the
 * insert's own uniqueness check), a cost every row pays for nothing in live ingest, where a batch holds no
 * stored event. A stored event aborts it (unique violation, nothing kept) and the batch is stored again skipping
 * duplicates. The domains whose last batch held duplicates (a retry storm, a log uploaded again) start with
 * the skipping form, so a run of such batches pays for one aborted statement, not one each; their first batch
 * with nothing stored twice returns them to the plain insert.
 */
export class DuplicateMemory {
  private readonly keys = new Set<string>();
  constructor(private readonly capacity = 1000) {}

  skipsFirst(key: string): boolean {
    return this.keys.has(key);
  }

  /** After a batch is stored: whether it held duplicates (an aborted plain insert, or fewer rows inserted than sent). */
  record(key: string, heldDuplicates: boolean): void {
    if (!heldDuplicates) {
      this.keys.delete(key);
      return;
    }
    this.keys.delete(key);
    this.keys.add(key);
    // Oldest first: a set iterates in insertion order.
    if (this.keys.size > this.capacity) this.keys.delete(this.keys.values().next().value as string);
  }
}
const duplicateMemory = new DuplicateMemory();

/**
 * recordVisits of a batch encoded beforehand (encodeVisitBatch; null for none), so its rows can be let go.
 * `citationsAwaited`: whether a webhook of its domains' account awaits citation.detected, when the caller has
 * read it already (otherwise asked here, for batches that cite).
 */
export async function storeVisitBatch(
  db: DbOrTx,
  batch: ReturnType<typeof encodeVisitBatch> | null,
  citationsAwaited?: boolean,
): Promise<number> {
  if (batch === null) return 0;
  // Encoded once: a retry sends the same parameters.
  const key = batch.domains;
  let skipDuplicates = duplicateMemory.skipsFirst(key);
  // A batch whose agents are all known and whose citations no webhook awaits is its one statement, committed on
  // its own: the rollup rows every concurrent batch adds to (the day's bots and engines) stay locked only until
  // Postgres commits it, not until the process gets round to sending COMMIT.
  const agentIds = cachedAgentIds(db, batch.agents);
  const alone =
    agentIds !== null &&
    (batch.citations === 0 ||
      !(citationsAwaited ?? (await domainsListening(db, key.split(","), "citation.detected"))));
  for (let attempt = 1; ; attempt++) {
    try {
      if (alone) {
        const { inserted } = await rawVisits.insertBatch(db, batch, agentIds, skipDuplicates);
        duplicateMemory.record(key, inserted < batch.count);
        return inserted;
      }
      // The visits, the agents first met in them and the citation.detected events they cause commit together (the
      // webhook outbox); the agents' ids are remembered once committed.
      let remember = () => {};
      const inserted = await db.transaction(async (tx) => {
        const agents = await resolveAgentIds(db, tx, batch.agents);
        remember = agents.remember;
        const { inserted, firstCitations } = await rawVisits.insertBatch(
          tx,
          batch,
          agents.ids,
          skipDuplicates,
        );
        if (firstCitations.length > 0) await emitCitationEvents(tx, firstCitations);
        return inserted;
      });
      remember();
      duplicateMemory.record(key, inserted < batch.count);
      return inserted;
    } catch (err) {
      if (!skipDuplicates && isUniqueViolation(err)) {
        // An event of the batch is stored already (or being stored by a batch that just committed).
        skipDuplicates = true;
        attempt--;
        continue;
      }
      // Should concurrent batches still deadlock (visits and rollup rows are locked in one statement), Postgres
      // aborts one of them whole; the statement is atomic, so running it again is safe.
      if (attempt >= 3 || !isDeadlock(err)) throw err;
    }
  }
}

/** One citation.detected event per first citation of a page by an engine on a UTC day. */
async function emitCitationEvents(tx: Tx, firsts: FirstCitation[]): Promise<void> {
  const owners = await tx
    .select({ id: domains.id, accountId: domains.accountId, hostname: domains.hostname })
    .from(domains)
    .where(inArray(domains.id, [...new Set(firsts.map((f) => f.domain_id))]));
  const byId = new Map(owners.map((o) => [o.id, o]));
  const listening = await accountsListening(
    tx,
    [...new Set(owners.map((o) => o.accountId))],
    "citation.detected",
  );
  for (const f of firsts) {
    const owner = byId.get(f.domain_id);
    if (!owner || !listening.has(owner.accountId)) continue;
    await emitWebhookEvent(tx, owner.accountId, "citation.detected", {
      domain: owner.hostname,
      path: f.page,
      engine: f.engine,
      day: f.day,
      occurredAt: new Date(f.occurred_at).toISOString(),
    });
  }
}
