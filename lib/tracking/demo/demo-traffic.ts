import { eq } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { type NewVisit, visits } from "@/lib/db/schema";
import { prepareVisit } from "../ingest/prepare-visit";
import { recordVisits } from "../ingest/record-visits";
import { generateSampleVisits } from "./sample-traffic";

const DEMO_VISIT_COUNT = 3000;

/**
 * Gives the demo domain something to chart: visits built from real user-agent strings over the last 60 days,
 * stored with is_demo = true (and demo: event keys) through the same path as real ingest. Only when the domain
 * has no visits yet, so restarts add nothing. Returns how many visits were stored.
 */
export async function seedDemoTraffic(db: Db, domainId: string, now = Date.now()): Promise<number> {
  const [any] = await db
    .select({ at: visits.occurredAt })
    .from(visits)
    .where(eq(visits.domainId, domainId))
    .limit(1);
  if (any) return 0;
  const sample = generateSampleVisits({ count: DEMO_VISIT_COUNT, days: 60, now, seed: 20_240_601 });
  const rows = sample
    .map((v, i) =>
      prepareVisit(domainId, { ...v, occurredAt: v.timestamp, ip: null }, `demo:${i}`, { isDemo: true }),
    )
    .filter((r): r is NewVisit => r !== null);
  let stored = 0;
  for (let i = 0; i < rows.length; i += 1000) stored += await recordVisits(db, rows.slice(i, i + 1000));
  return stored;
}
