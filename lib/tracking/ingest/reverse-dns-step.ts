import { promises as dns } from "node:dns";
import type { DbOrTx } from "@/lib/db/client";
import type { NewVisit } from "@/lib/db/schema";
import { createReverseDnsVerifier, type ReverseDnsVerifier } from "../catalog/reverse-dns";
import { rawVisits, type SettledVisit } from "../raw-visits/store";
import { awaitingSignature } from "./signature-judge";

let shared: ReverseDnsVerifier | null = null;
let override: ReverseDnsVerifier | null | undefined;

/**
 * TRACKING_REVERSE_DNS: "on" or "off"; unset means on in production (NODE_ENV=production) and off elsewhere,
 * so development machines and tests make no DNS queries unless asked to.
 */
export function reverseDnsEnabled(env: Record<string, string | undefined> = process.env): boolean {
  const mode = env.TRACKING_REVERSE_DNS;
  if (mode === "on") return true;
  if (mode === "off") return false;
  return env.NODE_ENV === "production";
}

/** Tests (and embedders) choose the verifier: a fake resolver's, or null for off; undefined restores the default. */
export function setIngestReverseDnsVerifier(verifier: ReverseDnsVerifier | null | undefined): void {
  override = verifier;
}

/**
 * The verifier ingest uses: the system resolver with a 1.5 s limit per address and a cache of 10,000
 * addresses, or null when reverse DNS is off.
 */
export function ingestReverseDnsVerifier(): ReverseDnsVerifier | null {
  if (override !== undefined) return override;
  if (!reverseDnsEnabled()) return null;
  shared ??= createReverseDnsVerifier({
    resolver: {
      reverse: (ip) => dns.reverse(ip),
      resolve: async (host) => {
        const [v4, v6] = await Promise.allSettled([dns.resolve4(host), dns.resolve6(host)]);
        return [
          ...(v4.status === "fulfilled" ? v4.value : []),
          ...(v6.status === "fulfilled" ? v6.value : []),
        ];
      },
    },
  });
  return shared;
}

/**
 * A visit spoofed by its address alone: in none of the ranges its operator publishes. Where the operator also
 * documents reverse DNS (Google, Bing, Apple, Amazon), a forward-confirmed name of the operator's overrules that:
 * a range file lags behind the operator's fleet (and the committed ones are seeds), while the name is the
 * operator's own word. Any other answer leaves the address's verdict standing.
 */
const spoofedByAddress = (row: NewVisit) =>
  row.verification === "unverified" && row.verificationMethod === "ip";

const needsLookup = (row: NewVisit, verifier: ReverseDnsVerifier) =>
  (row.verification === "unknown" || spoofedByAddress(row)) &&
  !!row.botName &&
  !!row.ip &&
  verifier.supports(row.botName) &&
  // A signed visit waits for its signature's verdict instead.
  !awaitingSignature.has(row);

/**
 * Before the rows are stored: settles from the verifier's cache the visits IP lists could not judge
 * ("unknown") of bots whose operators document reverse-DNS verification, and those their address alone called
 * spoofed. Makes no lookup, so it never delays a batch. Returns the rows that still need one.
 */
export function settleFromCache(rows: NewVisit[], verifier: ReverseDnsVerifier | null): NewVisit[] {
  if (!verifier) return [];
  const pending: NewVisit[] = [];
  for (const row of rows) {
    if (!needsLookup(row, verifier)) continue;
    const cached = verifier.peek(row.botName as string, row.ip as string);
    if (cached === undefined) pending.push(row);
    else if (spoofedByAddress(row)) {
      if (cached === "verified") {
        row.verification = "verified";
        row.verificationMethod = "rdns";
      }
    } else {
      row.verification = cached;
      row.verificationMethod = cached === "unknown" ? null : "rdns";
    }
  }
  return pending;
}

/** At most this many visits wait for a lookup at once; beyond it visits stay "unknown" (the cache still fills). */
const MAX_PENDING_VISITS = 20_000;
const LOOKUP_CONCURRENCY = 16;

let pendingVisits = 0;
const running = new Set<Promise<void>>();

/**
 * After the rows are stored: looks up the addresses of `pending` in the background (never awaited by ingest),
 * then marks those visits that are still "unknown" verified or unverified, and those spoofed by their address
 * that the operator's reverse DNS proves genuine verified, moving them in the daily bot rollup's verified/spoofed
 * counts, in one statement.
 */
export function verifyInBackground(
  db: DbOrTx,
  pending: NewVisit[],
  verifier: ReverseDnsVerifier | null,
): void {
  if (!verifier || pending.length === 0) return;
  const room = Math.max(0, MAX_PENDING_VISITS - pendingVisits);
  const rows = pending.slice(0, room);
  if (rows.length === 0) return;
  pendingVisits += rows.length;
  const task = verifyAndStore(db, rows, verifier)
    .catch((err) => {
      console.error("reverse-DNS verification failed", err);
    })
    .finally(() => {
      pendingVisits -= rows.length;
      running.delete(task);
    });
  running.add(task);
}

/** Resolves once every background verification started so far has finished (tests, graceful shutdown). */
export async function reverseDnsIdle(): Promise<void> {
  while (running.size > 0) await Promise.all([...running]);
}

async function verifyAndStore(db: DbOrTx, rows: NewVisit[], verifier: ReverseDnsVerifier): Promise<void> {
  const byLookup = new Map<string, NewVisit[]>();
  for (const row of rows) {
    const key = `${row.botName}\u0000${row.ip}`;
    byLookup.set(key, [...(byLookup.get(key) ?? []), row]);
  }
  const groups = [...byLookup.values()];
  const settled: SettledVisit[] = [];
  let next = 0;
  const worker = async () => {
    while (next < groups.length) {
      const group = groups[next++] as NewVisit[];
      const first = group[0] as NewVisit;
      const verdict = await verifier.verify(first.botName as string, first.ip as string);
      if (verdict === "unknown") continue;
      for (const row of group) {
        const key = [row.domainId, row.occurredAt.toISOString(), row.eventKey as string] as const;
        if (!spoofedByAddress(row)) settled.push([...key, verdict]);
        else if (verdict === "verified") settled.push([...key, verdict, true]);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(LOOKUP_CONCURRENCY, groups.length) }, worker));
  await rawVisits.settleVerdicts(db, settled, "rdns");
}
