// Reverse-DNS verification at ingest: a batch is stored without waiting for DNS, the lookups run afterwards
// and move the visits (and the daily bot rollup) from unknown to verified or spoofed; answers in the cache
// settle later batches at once. A local fake resolver answers; a gate holds it back to show ingest does not wait.
import { and, eq } from "drizzle-orm";
import { afterEach, expect, onTestFinished } from "vitest";
import { registerDomain } from "@/lib/accounts/domains";
import { signUp } from "@/lib/dashboard/signup";
import type { Db, DbHandle } from "@/lib/db/client";
import { trackingDailyBots, visits } from "@/lib/db/schema";
import { installRangeFeeds } from "@/lib/tracking/catalog/ip-ranges/verify";
import { createReverseDnsVerifier, type ReverseDnsResolver } from "@/lib/tracking/catalog/reverse-dns";
import { ingestEvents } from "@/lib/tracking/ingest/ingest-visits";
import {
  reverseDnsEnabled,
  reverseDnsIdle,
  setIngestReverseDnsVerifier,
} from "@/lib/tracking/ingest/reverse-dns-step";
import { dbTest } from "@/test/support/fixtures";

const AMAZONBOT =
  "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Amazonbot/0.1; +https://developer.amazon.com/support/amazonbot) Chrome/119.0.6045.214 Safari/537.36";
// An address of Amazon's fleet that the committed copy of its list does not hold: reverse DNS decides it.
const GENUINE = "3.224.220.102";
const IMPOSTOR = "203.0.113.50";

const test = dbTest;
let handle: DbHandle;
let db: Db;
let accountId: string;
let domainId: string;

test.beforeAll(async ({ handle: _handle }) => {
  handle = _handle;
  db = handle.db;
  const { user } = await signUp(db, {
    email: `rdns-${process.pid}@example.com`,
    password: "correct horse battery",
  });
  const { getActor } = await import("@/lib/dashboard/members");
  accountId = (await getActor(db, user.id))!.accountId;
  domainId = (await registerDomain(db, accountId, "rdns.example.com")).id;
});
afterEach(() => setIngestReverseDnsVerifier(undefined));

function gatedResolver() {
  let open!: () => void;
  const gate = new Promise<void>((resolve) => {
    open = resolve;
  });
  const calls = { reverse: 0 };
  const resolver: ReverseDnsResolver = {
    async reverse(ip) {
      calls.reverse++;
      await gate;
      if (ip === GENUINE) return ["3-224-220-102.crawl.amazonbot.amazon"];
      return ["crawl.amazonbot.amazon.attacker.example"];
    },
    async resolve(name) {
      if (name === "3-224-220-102.crawl.amazonbot.amazon") return [GENUINE];
      if (name === "crawl.amazonbot.amazon.attacker.example") return [IMPOSTOR];
      return [];
    },
  };
  return { resolver, open, calls };
}

async function stored() {
  const rows = await db
    .select({ ip: visits.ip, verification: visits.verification })
    .from(visits)
    .where(eq(visits.domainId, domainId))
    .orderBy(visits.path);
  const [rollup] = await db
    .select({
      visits: trackingDailyBots.visits,
      verified: trackingDailyBots.verifiedVisits,
      spoofed: trackingDailyBots.spoofedVisits,
    })
    .from(trackingDailyBots)
    .where(and(eq(trackingDailyBots.domainId, domainId), eq(trackingDailyBots.botName, "Amazonbot")));
  return { rows, rollup };
}

test("the batch is stored before DNS answers; the lookups then settle the visits and the rollup", async () => {
  const { resolver, open, calls } = gatedResolver();
  setIngestReverseDnsVerifier(createReverseDnsVerifier({ resolver, timeoutMs: 5_000 }));
  const timestamp = new Date().toISOString();
  const result = await ingestEvents(db, accountId, {
    events: [
      { domain: "rdns.example.com", path: "/1", userAgent: AMAZONBOT, ip: GENUINE, timestamp },
      { domain: "rdns.example.com", path: "/2", userAgent: AMAZONBOT, ip: IMPOSTOR, timestamp },
      { domain: "rdns.example.com", path: "/3", userAgent: AMAZONBOT, ip: GENUINE, timestamp },
    ],
  });
  // Ingest returned while the resolver was still held back.
  expect(result.accepted).toBe(3);
  expect(await stored()).toEqual({
    rows: [
      { ip: GENUINE, verification: "unknown" },
      { ip: IMPOSTOR, verification: "unknown" },
      { ip: GENUINE, verification: "unknown" },
    ],
    rollup: { visits: 3, verified: 0, spoofed: 0 },
  });

  open();
  await reverseDnsIdle();
  expect(calls.reverse).toBe(2); // one lookup per address
  expect(await stored()).toEqual({
    rows: [
      { ip: GENUINE, verification: "verified" },
      { ip: IMPOSTOR, verification: "unverified" },
      { ip: GENUINE, verification: "verified" },
    ],
    rollup: { visits: 3, verified: 2, spoofed: 1 },
  });

  // The next batch from a known address is settled from the cache before it is stored.
  await ingestEvents(db, accountId, {
    events: [{ domain: "rdns.example.com", path: "/4", userAgent: AMAZONBOT, ip: IMPOSTOR, timestamp }],
  });
  expect(calls.reverse).toBe(2);
  expect((await stored()).rows.at(-1)).toEqual({ ip: IMPOSTOR, verification: "unverified" });
  expect((await stored()).rollup).toEqual({ visits: 4, verified: 2, spoofed: 2 });
  // Reverse DNS is named as the method that decided, in the visits and in the rollup.
  const methods = await db
    .select({ method: visits.verificationMethod })
    .from(visits)
    .where(eq(visits.domainId, domainId))
    .orderBy(visits.path);
  expect(methods.map((m) => m.method)).toEqual(["rdns", "rdns", "rdns", "rdns"]);
  const [byMethod] = await db
    .select({ rdns: trackingDailyBots.rdnsVerifiedVisits, ip: trackingDailyBots.ipVerifiedVisits })
    .from(trackingDailyBots)
    .where(and(eq(trackingDailyBots.domainId, domainId), eq(trackingDailyBots.botName, "Amazonbot")));
  expect(byMethod).toEqual({ rdns: 2, ip: 0 });
});

test("an address outside the published ranges is spoofed until the operator's reverse DNS proves it genuine", async () => {
  // Google documents both its ranges and its reverse DNS. Google's list as fetched a while ago (whole, not a seed):
  // 66.249.64.200 is in none of its ranges, as an address of a range Google added since would be.
  installRangeFeeds({
    "google-common-crawlers": {
      creationTime: "2026-01-01T00:00:00.000000",
      prefixes: [{ ipv4Prefix: "66.249.66.0/27" }, { ipv6Prefix: "2001:4860:4801:10::/64" }],
    },
  });
  onTestFinished(() => installRangeFeeds({}));
  const GOOGLEBOT = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";
  const NEW_RANGE = "66.249.64.200";
  const FORGED = "185.220.101.4";
  const SILENT = "45.33.32.156";
  const IN_RANGE = "66.249.66.1";
  const lookedUp: string[] = [];
  let open!: () => void;
  const gate = new Promise<void>((resolve) => {
    open = resolve;
  });
  const resolver: ReverseDnsResolver = {
    async reverse(ip) {
      lookedUp.push(ip);
      await gate;
      if (ip === NEW_RANGE) return ["crawl-66-249-64-200.googlebot.com"];
      if (ip === FORGED) return ["crawl-66-249-64-200.googlebot.com.attacker.example"];
      throw Object.assign(new Error("timeout"), { code: "ETIMEOUT" });
    },
    async resolve(name) {
      if (name === "crawl-66-249-64-200.googlebot.com") return [NEW_RANGE];
      if (name === "crawl-66-249-64-200.googlebot.com.attacker.example") return [FORGED];
      return [];
    },
  };
  setIngestReverseDnsVerifier(createReverseDnsVerifier({ resolver, timeoutMs: 5_000 }));
  const hostname = "rdns-ranges.example.com";
  const id = (await registerDomain(db, accountId, hostname)).id;
  const timestamp = new Date().toISOString();
  const event = (path: string, ip: string) => ({
    domain: hostname,
    path,
    userAgent: GOOGLEBOT,
    ip,
    timestamp,
  });
  const state = async () => ({
    rows: (
      await db
        .select({ ip: visits.ip, verification: visits.verification, method: visits.verificationMethod })
        .from(visits)
        .where(eq(visits.domainId, id))
        .orderBy(visits.path)
    ).map((r) => `${r.ip} ${r.verification} ${r.method}`),
    rollup: (
      await db
        .select({
          visits: trackingDailyBots.visits,
          verified: trackingDailyBots.verifiedVisits,
          spoofed: trackingDailyBots.spoofedVisits,
          ip: trackingDailyBots.ipVerifiedVisits,
          rdns: trackingDailyBots.rdnsVerifiedVisits,
        })
        .from(trackingDailyBots)
        .where(and(eq(trackingDailyBots.domainId, id), eq(trackingDailyBots.botName, "Googlebot")))
    )[0],
  });

  await ingestEvents(db, accountId, {
    events: [event("/1", NEW_RANGE), event("/2", FORGED), event("/3", SILENT), event("/4", IN_RANGE)],
  });
  // Stored at once with the addresses' verdicts; an address in the ranges needs no lookup.
  expect(await state()).toEqual({
    rows: [
      `${NEW_RANGE} unverified ip`,
      `${FORGED} unverified ip`,
      `${SILENT} unverified ip`,
      `${IN_RANGE} verified ip`,
    ],
    rollup: { visits: 4, verified: 1, spoofed: 3, ip: 1, rdns: 0 },
  });
  open();
  await reverseDnsIdle();
  expect(lookedUp.sort()).toEqual([SILENT, FORGED, NEW_RANGE].sort());
  // Google's own name for the new address overrules the range file; a forged name or no answer leaves the
  // address's verdict standing.
  expect(await state()).toEqual({
    rows: [
      `${NEW_RANGE} verified rdns`,
      `${FORGED} unverified ip`,
      `${SILENT} unverified ip`,
      `${IN_RANGE} verified ip`,
    ],
    rollup: { visits: 4, verified: 2, spoofed: 2, ip: 1, rdns: 1 },
  });

  // The next visits from those addresses are settled from the cache before they are stored.
  await ingestEvents(db, accountId, { events: [event("/5", NEW_RANGE), event("/6", FORGED)] });
  await reverseDnsIdle();
  expect(lookedUp).toHaveLength(3);
  expect((await state()).rows.slice(4)).toEqual([`${NEW_RANGE} verified rdns`, `${FORGED} unverified ip`]);
  expect((await state()).rollup).toEqual({ visits: 6, verified: 3, spoofed: 3, ip: 1, rdns: 2 });
});

test("off: nothing is looked up and the visits stay unknown", async () => {
  setIngestReverseDnsVerifier(null);
  await ingestEvents(db, accountId, {
    events: [
      {
        domain: "rdns.example.com",
        path: "/5",
        userAgent: AMAZONBOT,
        ip: "198.51.100.7",
        timestamp: new Date().toISOString(),
      },
    ],
  });
  await reverseDnsIdle();
  expect((await stored()).rows.at(-1)).toEqual({ ip: "198.51.100.7", verification: "unknown" });
});

test("on by default in production, off elsewhere; TRACKING_REVERSE_DNS=on/off decides when set", () => {
  expect(reverseDnsEnabled({ NODE_ENV: "production" })).toBe(true);
  expect(reverseDnsEnabled({ NODE_ENV: "production", TRACKING_REVERSE_DNS: "off" })).toBe(false);
  expect(reverseDnsEnabled({ NODE_ENV: "development" })).toBe(false);
  expect(reverseDnsEnabled({ NODE_ENV: "test", TRACKING_REVERSE_DNS: "on" })).toBe(true);
  expect(reverseDnsEnabled({})).toBe(false);
});
