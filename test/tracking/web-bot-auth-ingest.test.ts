// Web Bot Auth at ingest: signed events are verified against the agent's key directory, served here on
// 127.0.0.1 (ephemeral port) with its real media type and caching headers. The directory is fetched outside the
// ingest statement; a visit whose keys are not known yet is stored undecided and settled afterwards, with the
// daily bot rollup; a directory that is down leaves its visits undecided until it answers.
import { and, eq } from "drizzle-orm";
import { afterAll, afterEach, beforeEach, expect } from "vitest";
import { registerDomain } from "@/lib/accounts/domains";
import { signUp } from "@/lib/dashboard/signup";
import type { Db, DbHandle } from "@/lib/db/client";
import { trackingDailyBots, visits } from "@/lib/db/schema";
import { installRangeFeeds } from "@/lib/tracking/catalog/ip-ranges/verify";
import { ingestEvents, ingestLog } from "@/lib/tracking/ingest/ingest-visits";
import {
  agentKeyDirectories,
  resetSignatureState,
  retryWaitingSignatures,
  signaturesIdle,
  signaturesWaiting,
} from "@/lib/tracking/ingest/signature-step";
import { getBotStats } from "@/lib/tracking/reports/stats";
import { listBotVisits } from "@/lib/tracking/reports/visits-list";
import { type AgentKeyDirectory, startAgentKeyDirectory } from "@/test/fakes/agent-key-directory";
import { type AgentKeyPair, agentKeyPair, signRequest } from "@/test/fakes/web-bot-auth";
import { dbTest } from "@/test/support/fixtures";
import { committedListsAsWhole } from "@/test/support/range-feeds";

const CHATGPT_USER =
  "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; ChatGPT-User/1.0; +https://openai.com/bot";
const HOST = "signed.example.com";
const IP = "85.181.35.98"; // a public address in none of OpenAI's ranges: only a signature can verify these visits

const test = dbTest;
let handle: DbHandle;
let db: Db;
let accountId: string;
let domainId: string;
let origin: string;
let key: AgentKeyPair;
let directory: AgentKeyDirectory;
const saved: Record<string, string | undefined> = {};

test.beforeAll(async ({ handle: _handle }) => {
  handle = _handle;
  db = handle.db;
  const { user } = await signUp(db, {
    email: `wba-${process.pid}@example.com`,
    password: "correct horse battery",
  });
  const { getActor } = await import("@/lib/dashboard/members");
  accountId = (await getActor(db, user.id))!.accountId;
  domainId = (await registerDomain(db, accountId, HOST)).id;
  directory = await startAgentKeyDirectory();
  origin = directory.origin;
  for (const name of ["ALLOW_PRIVATE_TARGETS", "TRACKING_SIGNATURE_AGENTS"]) saved[name] = process.env[name];
  process.env.ALLOW_PRIVATE_TARGETS = "loopback";
  process.env.TRACKING_SIGNATURE_AGENTS = `ChatGPT-User=${origin}`;
  // The operators' whole lists, as a refresh stores them: an address outside them is spoofed, which a signature
  // that speaks for the bot overrules.
  installRangeFeeds(committedListsAsWhole());
});

beforeEach(async () => {
  resetSignatureState();
  key = agentKeyPair();
  directory.up = true;
  directory.requests = 0;
  directory.keys = [{ ...key.jwk, kid: key.keyid, use: "sig" }];
  await db.delete(visits).where(eq(visits.domainId, domainId));
  await db.delete(trackingDailyBots).where(eq(trackingDailyBots.domainId, domainId));
});

afterEach(async () => {
  await signaturesIdle();
});

afterAll(async () => {
  installRangeFeeds({});
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  resetSignatureState();
  await directory.close();
});

const now = () => Math.floor(Date.now() / 1000);

function event(path: string, headers: object, extra: object = {}) {
  return {
    domain: HOST,
    path,
    userAgent: CHATGPT_USER,
    ip: IP,
    timestamp: new Date().toISOString(),
    ...headers,
    ...extra,
  };
}

function signed(o: Partial<Parameters<typeof signRequest>[0]> = {}) {
  return signRequest({ key, agent: origin, authority: HOST, created: now() - 5, expires: now() + 300, ...o });
}

async function stored() {
  const rows = await db
    .select({ path: visits.path, verification: visits.verification, method: visits.verificationMethod })
    .from(visits)
    .where(eq(visits.domainId, domainId))
    .orderBy(visits.path);
  const [rollup] = await db
    .select({
      visits: trackingDailyBots.visits,
      verified: trackingDailyBots.verifiedVisits,
      spoofed: trackingDailyBots.spoofedVisits,
      bySignature: trackingDailyBots.signatureVerifiedVisits,
    })
    .from(trackingDailyBots)
    .where(and(eq(trackingDailyBots.domainId, domainId), eq(trackingDailyBots.botName, "ChatGPT-User")));
  return { rows: rows.map((r) => [r.path, r.verification, r.method]), rollup };
}

test("first signed visits are settled once the directory is fetched; later ones are verified at ingest", async () => {
  const result = await ingestEvents(db, accountId, {
    events: [
      event("/a", signed()),
      event("/b", signed({ agentForm: "string" })),
      event("/c", signed({ signWith: agentKeyPair().privateKey })), // signed with another key than its keyid's
      event("/d", signed({ method: "GET", path: "/d" }), { method: "GET" }),
    ],
  });
  expect(result.accepted).toBe(4);
  await signaturesIdle();
  expect(directory.requests).toBe(1);
  expect(await stored()).toEqual({
    rows: [
      ["/a", "verified", "signature"],
      ["/b", "verified", "signature"],
      ["/c", "unverified", "signature"],
      ["/d", "verified", "signature"],
    ],
    rollup: { visits: 4, verified: 3, spoofed: 1, bySignature: 3 },
  });

  // The directory is cached (max-age=300): the next batch is decided inside ingest, with no fetch.
  await ingestEvents(db, accountId, {
    events: [
      event("/e", signed()),
      event("/f", signed({ keyid: agentKeyPair().keyid })), // a key the directory does not publish
      event("/g", signed(), { host: "evil.example" }), // signed for another host
      event("/h", {}), // unsigned: the address decides (not one of OpenAI's)
    ],
  });
  expect(directory.requests).toBe(1);
  const after = await stored();
  expect(after.rows.slice(4)).toEqual([
    ["/e", "verified", "signature"],
    ["/f", "unverified", "signature"],
    ["/g", "unverified", "signature"],
    ["/h", "unverified", "ip"],
  ]);
  expect(after.rollup).toEqual({ visits: 8, verified: 4, spoofed: 4, bySignature: 4 });

  // The API's vocabulary: verified (by signature), spoofed.
  const listed = await listBotVisits(db, accountId, { domain: HOST, limit: 10 });
  const byPath = Object.fromEntries(
    listed.visits.map((v) => [v.path, [v.verification, v.verificationMethod]]),
  );
  expect(byPath["/e"]).toEqual(["verified", "signature"]);
  expect(byPath["/f"]).toEqual(["spoofed", "signature"]);
  expect(byPath["/h"]).toEqual(["spoofed", "ip"]);
  const stats = await getBotStats(db, accountId, HOST);
  expect(stats.topBots[0]).toMatchObject({
    name: "ChatGPT-User",
    count: 8,
    verification: { verified: 4, spoofed: 4, unverified: 0, verifiedBy: { signature: 4, ip: 0, rdns: 0 } },
  });
});

test("a key's nbf and exp bound what it signs, in seconds or in the reference directory's milliseconds", async () => {
  const day = 86_400;
  const [later, expired, ms, msLater] = [agentKeyPair(), agentKeyPair(), agentKeyPair(), agentKeyPair()];
  directory.keys = [
    // The reference directory's own example: "nbf": 1743465600000 (1 April 2025, in milliseconds).
    { ...key.jwk, kid: key.keyid, nbf: 1743465600000 },
    { ...later.jwk, kid: later.keyid, nbf: now() + day },
    { ...expired.jwk, kid: expired.keyid, nbf: now() - 2 * day, exp: now() - day },
    { ...ms.jwk, kid: ms.keyid, nbf: (now() - day) * 1000, exp: (now() + day) * 1000 },
    { ...msLater.jwk, kid: msLater.keyid, nbf: (now() + day) * 1000 },
  ];
  await ingestEvents(db, accountId, {
    events: [
      event("/a-since-2025", signed()),
      event("/b-not-yet", signed({ key: later })),
      event("/c-expired", signed({ key: expired })),
      event("/d-ms-window", signed({ key: ms })),
      event("/e-ms-not-yet", signed({ key: msLater })),
    ],
  });
  await signaturesIdle();
  expect((await stored()).rows).toEqual([
    ["/a-since-2025", "verified", "signature"],
    ["/b-not-yet", "unverified", "signature"],
    ["/c-expired", "unverified", "signature"],
    ["/d-ms-window", "verified", "signature"],
    ["/e-ms-not-yet", "unverified", "signature"],
  ]);
});

test("a signed request with a browser's user agent is the agent its signature names: verified, or spoofed", async () => {
  // ChatGPT's agent browses with Chrome's user agent: only its signature (as chatgpt.com) names it.
  const CHROME =
    "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
  const configured = process.env.TRACKING_SIGNATURE_AGENTS;
  process.env.TRACKING_SIGNATURE_AGENTS = `ChatGPT-User=${origin}; ChatGPT Agent=${origin}`;
  const stranger = await startAgentKeyDirectory(); // an agent no bot signs as
  const strangerKey = agentKeyPair();
  stranger.keys = [{ ...strangerKey.jwk, kid: strangerKey.keyid }];
  try {
    const result = await ingestEvents(db, accountId, {
      events: [
        event("/agent", signed(), { userAgent: CHROME }),
        event("/agent-forged", signed({ signWith: agentKeyPair().privateKey }), { userAgent: CHROME }),
        event("/stranger", signed({ key: strangerKey, agent: stranger.origin }), { userAgent: CHROME }),
        event("/person", {}, { userAgent: CHROME }),
      ],
    });
    // A person, and a signer that speaks for no bot: neither is a bot visit, so neither is stored.
    expect(result).toMatchObject({ accepted: 2, skipped: 2 });
    await signaturesIdle();
    const rows = await db
      .select({
        path: visits.path,
        bot: visits.botName,
        ai: visits.isAiBot,
        verification: visits.verification,
      })
      .from(visits)
      .where(eq(visits.domainId, domainId))
      .orderBy(visits.path);
    expect(rows).toEqual([
      { path: "/agent", bot: "ChatGPT Agent", ai: true, verification: "verified" },
      { path: "/agent-forged", bot: "ChatGPT Agent", ai: true, verification: "unverified" },
    ]);
    expect((await stored()).rows).toEqual([
      ["/agent", "verified", "signature"],
      ["/agent-forged", "unverified", "signature"],
    ]);
    expect(stranger.requests).toBe(0);
  } finally {
    process.env.TRACKING_SIGNATURE_AGENTS = configured;
    await stranger.close();
  }
});

test("agents signing with RSA-PSS SHA-512 or ECDSA P-256 (RFC 9421) are verified as Ed25519 ones are", async () => {
  const rsa = agentKeyPair("rsa-pss-sha512");
  const ec = agentKeyPair("ecdsa-p256-sha256");
  // The directory labels its keys as it likes (the reference signer's keys are named test-key-rsa-pss): keys
  // are found by thumbprint.
  directory.keys = [
    { ...rsa.jwk, kid: "test-key-rsa-pss", alg: "PS512" },
    { ...ec.jwk, kid: ec.keyid },
  ];
  await ingestEvents(db, accountId, {
    events: [
      event("/rsa", signed({ key: rsa })),
      event("/ec", signed({ key: ec, agentForm: "string" })),
      event("/rsa-forged", signed({ key: rsa, signWith: agentKeyPair("rsa-pss-sha512").privateKey })),
      event("/ec-elsewhere", signed({ key: ec }), { host: "evil.example" }),
    ],
  });
  await signaturesIdle();
  expect(await stored()).toEqual({
    rows: [
      ["/ec", "verified", "signature"],
      ["/ec-elsewhere", "unverified", "signature"],
      ["/rsa", "verified", "signature"],
      ["/rsa-forged", "unverified", "signature"],
    ],
    rollup: { visits: 4, verified: 2, spoofed: 2, bySignature: 2 },
  });
});

test("an agent naming its keys by a Signature Agent Card (type=cimd) is verified from the card's key set", async () => {
  const card = `${origin}/card`;
  process.env.TRACKING_SIGNATURE_AGENTS = `ChatGPT-User=${origin}; ChatGPT-User=${card}`;
  try {
    await ingestEvents(db, accountId, {
      events: [
        event("/card-a", signed({ agent: card, agentType: "cimd" })),
        event("/card-b", signed({ agent: card, agentType: "cimd", signWith: agentKeyPair().privateKey })),
      ],
    });
    await signaturesIdle();
    expect((await stored()).rows).toEqual([
      ["/card-a", "verified", "signature"],
      ["/card-b", "unverified", "signature"],
    ]);
    // The card was read, then the key set it names.
    expect(directory.requests).toBe(2);
  } finally {
    process.env.TRACKING_SIGNATURE_AGENTS = `ChatGPT-User=${origin}`;
  }
});

test("expired and replayed signatures are spoofed, decided without the directory", async () => {
  const t = now();
  await ingestEvents(db, accountId, {
    events: [
      event("/expired", signed({ created: t - 900, expires: t - 600 })),
      // A signature captured an hour ago, its five-minute window long past, replayed on a request now.
      event("/replayed", signed({ created: t - 3600, expires: t - 3300 })),
    ],
  });
  await signaturesIdle();
  expect(directory.requests).toBe(0);
  expect((await stored()).rows).toEqual([
    ["/expired", "unverified", "signature"],
    ["/replayed", "unverified", "signature"],
  ]);
});

test("a directory that is down: visits stay unverified, then are settled when it answers", async () => {
  directory.up = false;
  await ingestEvents(db, accountId, {
    events: [event("/1", signed()), event("/2", signed({ agentForm: "string" }))],
  });
  await signaturesIdle();
  expect(directory.requests).toBe(1);
  expect(await stored()).toEqual({
    rows: [
      ["/1", "unknown", null],
      ["/2", "unknown", null],
    ],
    rollup: { visits: 2, verified: 0, spoofed: 0, bySignature: 0 },
  });
  expect(signaturesWaiting()).toBe(2);
  const listed = await listBotVisits(db, accountId, { domain: HOST, limit: 10 });
  expect(listed.visits.map((v) => [v.verification, v.verificationMethod])).toEqual([
    ["unverified", null],
    ["unverified", null],
  ]);

  directory.up = true;
  retryWaitingSignatures();
  await signaturesIdle();
  expect(signaturesWaiting()).toBe(0);
  expect(await stored()).toEqual({
    rows: [
      ["/1", "verified", "signature"],
      ["/2", "verified", "signature"],
    ],
    rollup: { visits: 2, verified: 2, spoofed: 0, bySignature: 2 },
  });
});

test("a signature from an agent the bot's operator does not sign as proves nothing about the bot", async () => {
  const stranger = signRequest({
    key,
    agent: "https://stranger.example",
    authority: HOST,
    created: now() - 5,
    expires: now() + 300,
  });
  await ingestEvents(db, accountId, { events: [event("/s", stranger)] });
  await signaturesIdle();
  expect(directory.requests).toBe(0);
  // The address decides, as for an unsigned visit.
  expect((await stored()).rows).toEqual([["/s", "unverified", "ip"]]);
});

test("signed requests in an nginx JSON log are verified too", async () => {
  // Warm the cache: the log's visits are then decided at ingest.
  expect(
    await agentKeyDirectories.load({
      url: `${origin}/.well-known/http-message-signatures-directory`,
      card: false,
    }),
  ).not.toBeNull();
  const headers = signed();
  const line = (path: string, h: object) =>
    JSON.stringify({
      time_iso8601: new Date().toISOString(),
      remote_addr: IP,
      request: `GET ${path} HTTP/1.1`,
      status: 200,
      http_user_agent: CHATGPT_USER,
      http_host: HOST,
      ...h,
    });
  const log = [
    line("/log-1", {
      http_signature: headers.signature,
      http_signature_input: headers.signatureInput,
      http_signature_agent: headers.signatureAgent,
    }),
    line("/log-2", {
      http_signature: signed({ signWith: agentKeyPair().privateKey }).signature,
      http_signature_input: headers.signatureInput,
      http_signature_agent: headers.signatureAgent,
    }),
  ].join("\n");
  const result = await ingestLog(db, accountId, HOST, log);
  expect(result.accepted).toBe(2);
  expect((await stored()).rows).toEqual([
    ["/log-1", "verified", "signature"],
    ["/log-2", "unverified", "signature"],
  ]);
});

test("a key published after the directory was cached: fetched again, the visit verified", async () => {
  const url = `${origin}/.well-known/http-message-signatures-directory`;
  expect(await agentKeyDirectories.load({ url, card: false })).not.toBeNull();
  expect(directory.requests).toBe(1);
  // The agent rotates: a new key beside the old one. Our copy is still fresh, but over a minute old.
  const rotated = agentKeyPair();
  directory.keys = [...directory.keys, { ...rotated.jwk, kid: rotated.keyid }];
  const realNow = agentKeyDirectories.now;
  agentKeyDirectories.now = () => Date.now() + 90_000;
  try {
    await ingestEvents(db, accountId, {
      events: [
        event(
          "/rotated",
          signRequest({
            key: rotated,
            agent: origin,
            authority: HOST,
            created: now() - 5,
            expires: now() + 300,
          }),
        ),
      ],
    });
    await signaturesIdle();
  } finally {
    agentKeyDirectories.now = realNow;
  }
  expect(directory.requests).toBe(2);
  expect((await stored()).rows).toEqual([["/rotated", "verified", "signature"]]);
});
