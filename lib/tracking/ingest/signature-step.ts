import type { DbOrTx } from "@/lib/db/client";
import { rawVisits, type SettledVisit } from "../raw-visits/store";
import { agentKeyDirectories, type KeySource, keySourceName, keySourceOf } from "./key-directory-cache";
import { awaitingSignature, COMPLETE_FOR_MS, type PendingSignature, verdictWith } from "./signature-judge";

/** The parsed key directories, shared with the tests that warm or inspect them. */
export { agentKeyDirectories };

/** At most this many visits wait for their agent's keys at once; beyond it they stay undecided. */
const MAX_PENDING_SIGNATURES = 20_000;
/** When a directory that could not be fetched is tried again for the visits waiting on it. */
const RETRY_DELAYS_MS = [30_000, 2 * 60_000, 10 * 60_000, 30 * 60_000, 2 * 60 * 60_000];

interface Waiting {
  source: KeySource;
  db: DbOrTx;
  items: PendingSignature[];
  attempt: number;
  timer: NodeJS.Timeout | null;
}

const waiting = new Map<string, Waiting>();
const running = new Set<Promise<void>>();
let pendingCount = 0;

/**
 * After the rows are stored: fetches the directories the pending signatures name (never awaited by ingest),
 * verifies them and moves the visits still undecided to verified or spoofed, with the daily bot rollup's counts,
 * in one statement per directory. A directory that cannot be fetched is tried again later (RETRY_DELAYS_MS); its
 * visits stay undecided meanwhile, and for good once the retries are spent.
 */
export function settleSignaturesInBackground(db: DbOrTx, pending: PendingSignature[]): void {
  if (pending.length === 0) return;
  const byDirectory = new Map<string, { source: KeySource; items: PendingSignature[] }>();
  for (const p of pending) {
    if (pendingCount >= MAX_PENDING_SIGNATURES) break;
    pendingCount++;
    const source = keySourceOf(p.check);
    const name = keySourceName(source);
    const entry = byDirectory.get(name);
    if (entry) entry.items.push(p);
    else byDirectory.set(name, { source, items: [p] });
  }
  for (const [name, { source, items }] of byDirectory) {
    const queued = waiting.get(name);
    if (queued) {
      queued.items.push(...items);
      continue;
    }
    track(attempt(source, { source, db, items, attempt: 0, timer: null }));
  }
}

function track(task: Promise<void>): void {
  const t = task
    .catch((error) => console.error("signature verification failed", error))
    .finally(() => running.delete(t));
  running.add(t);
}

async function attempt(source: KeySource, w: Waiting): Promise<void> {
  const name = keySourceName(source);
  // A key the cached copy lacks may have been published since: fetched again (at most once a minute).
  const cached = agentKeyDirectories.cached(source);
  const lacksKey =
    cached !== undefined &&
    agentKeyDirectories.now() - cached.fetchedAt >= COMPLETE_FOR_MS &&
    w.items.some((item) => !cached.keys.has(item.check.keyid));
  const directory = await agentKeyDirectories.load(source, { force: w.attempt > 0 || lacksKey });
  if (!directory) {
    if (w.attempt >= RETRY_DELAYS_MS.length) {
      pendingCount -= w.items.length;
      return;
    }
    const delay = RETRY_DELAYS_MS[w.attempt] as number;
    w.attempt++;
    waiting.set(name, w);
    w.timer = setTimeout(() => retryNow(name), delay);
    w.timer.unref?.();
    return;
  }
  waiting.delete(name);
  pendingCount -= w.items.length;
  const settled: SettledVisit[] = [];
  for (const item of w.items) {
    awaitingSignature.delete(item.row);
    settled.push([
      item.row.domainId,
      item.row.occurredAt.toISOString(),
      item.row.eventKey as string,
      verdictWith(directory, item.check, item.at) ?? "unverified",
    ]);
  }
  await rawVisits.settleVerdicts(w.db, settled, "signature");
}

function retryNow(name: string): void {
  const w = waiting.get(name);
  if (!w) return;
  waiting.delete(name);
  if (w.timer) clearTimeout(w.timer);
  track(attempt(w.source, w));
}

/** Tries every waiting directory again now (tests; an operator's nudge after an agent's outage). */
export function retryWaitingSignatures(): void {
  for (const name of [...waiting.keys()]) retryNow(name);
}

/** Resolves once every background verification started so far has finished (tests, graceful shutdown). */
export async function signaturesIdle(): Promise<void> {
  while (running.size > 0) await Promise.all([...running]);
}

/** How many visits wait for a directory that could not be fetched yet. */
export function signaturesWaiting(): number {
  let n = 0;
  for (const w of waiting.values()) n += w.items.length;
  return n;
}

/** Forgets the cached directories and the waiting visits (tests). */
export function resetSignatureState(): void {
  for (const w of waiting.values()) if (w.timer) clearTimeout(w.timer);
  waiting.clear();
  pendingCount = 0;
  agentKeyDirectories.clear();
}
