import { eq, sql } from "drizzle-orm";
import { requireRegisteredDomain } from "@/lib/accounts/domains";
import type { Db } from "@/lib/db/client";
import { runsOnThisThread } from "@/lib/db/rows";
import { domains, type NewVisit } from "@/lib/db/schema";
import { AppError as ApiError, validationError } from "@/lib/errors";
import { normalizeHostname } from "@/lib/hostname";
import { accountListensSql } from "@/lib/webhooks/outbox";
import { type EventsIngestResult, LOG_REJECTED_REPORTED, type LogsIngestResult } from "../api-schemas";
import { loadStoredRangeFeeds } from "../catalog/ip-ranges/stored-feeds";
import { encodeVisitBatch } from "./encode-visits";
import { normaliseIp } from "./event-fields";
import { eventKey, MAX_AGE_MS, MAX_FUTURE_MS, type RejectedEvent, validateEvents } from "./event-schema";
import type { LogFormat } from "./log-formats";
import { jsonArrayAsRecords, type LogSource, parseLogStream } from "./log-stream";
import { prepareVisit, type VisitFields } from "./prepare-visit";
import { recordVisits, storeVisitBatch } from "./record-visits";
import { ingestReverseDnsVerifier, settleFromCache, verifyInBackground } from "./reverse-dns-step";
import type { PendingSignature } from "./signature-judge";
import { settleSignaturesInBackground } from "./signature-step";

const LOG_BATCH = 1000;
/** On a database that runs on the server's thread, smaller statements so that other requests wait less. */
const LOG_BATCH_IN_PROCESS = 250;
/** Longest stretch of parsing an upload does before letting the server answer other requests. */
const LOG_SLICE_MS = 20;

/**
 * A turn of the event loop, so the server answers other requests between the chunks of a large upload: the
 * embedded database runs each query on this thread and its promise settles without one, so without this an
 * upload of 10 MB would hold every other request until its last line.
 */
function yieldToServer(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/**
 * The account's domains (id and hostname) and whether a webhook awaits its citations (on every row), by a query
 * built once per database: every batch asks, and building the select with its columns each time cost more than
 * reading the rows.
 */
const domainQueries = new WeakMap<Db, ReturnType<typeof buildDomainQuery>>();
function buildDomainQuery(db: Db) {
  const accountId = sql.placeholder("accountId");
  return db
    .select({
      id: domains.id,
      hostname: domains.hostname,
      citationsAwaited: accountListensSql(db, accountId, "citation.detected"),
    })
    .from(domains)
    .where(eq(domains.accountId, accountId))
    .prepare("ingest_account_domains");
}
function accountDomains(
  db: Db,
  accountId: string,
): Promise<{ id: string; hostname: string; citationsAwaited: boolean }[]> {
  let query = domainQueries.get(db);
  if (query === undefined) {
    query = buildDomainQuery(db);
    domainQueries.set(db, query);
  }
  return query.execute({ accountId });
}

/** The registered domain an event's host belongs to: the hostname itself, or its www. twin. */
function domainMatcher(rows: { id: string; hostname: string }[]) {
  const byHost = new Map(rows.map((r) => [r.hostname, r.id]));
  return (host: string) =>
    byHost.get(host) ?? (host.startsWith("www.") ? byHost.get(host.slice(4)) : undefined);
}

/**
 * POST /tracking/events: validates each event on its own, stores the new bot visits and citations of the
 * account's domains with their rollups (one transaction, a handful of statements per batch), and reports
 * what happened to every event. A batch whose valid events all name unregistered domains is 403.
 *
 * Not an async function: an async function's parameters stay reachable until it returns, so `body` (the parsed
 * JSON of a thousand events) would live through the wait for the database, be copied by the young generation's
 * collections and promoted to the old one. Here it is validated at once and let go; a malformed batch still
 * rejects the returned promise (it never throws).
 */
export function ingestEvents(
  db: Db,
  accountId: string,
  body: unknown,
  options: { now?: () => number } = {},
): Promise<EventsIngestResult> {
  let validated: ReturnType<typeof validateBatch>;
  try {
    validated = validateBatch(body, options);
  } catch (err) {
    return Promise.reject(err);
  }
  return prepareEvents(db, accountId, validated).then((batch) => storeEvents(db, batch));
}

/**
 * Stores a prepared batch. Reverse DNS never holds a batch up: cached answers settled visits in prepareEvents, the
 * rest are looked up afterwards. Only the encoded batch and its counts wait for the database.
 */
async function storeEvents(
  db: Db,
  batch: Awaited<ReturnType<typeof prepareEvents>>,
): Promise<EventsIngestResult> {
  const inserted = await storeVisitBatch(db, batch.encoded, batch.citationsAwaited);
  verifyInBackground(db, batch.pending, batch.verifier);
  // Signed visits whose agent's keys were not at hand: verified once the directory is fetched, after the commit.
  settleSignaturesInBackground(db, batch.signatures);
  const { received, prepared, skipped, rejected } = batch;
  return { received, accepted: inserted, duplicates: prepared - inserted, skipped, rejected };
}

/** The batch's events validated one by one (a malformed envelope: a 400 thrown here). */
function validateBatch(body: unknown, options: { now?: () => number }) {
  const validated = validateEvents(body, options);
  if (!validated.ok) {
    throw validationError(
      `Invalid batch: ${validated.errors.map((e) => `${e.field}: ${e.message}`).join("; ")}`,
      validated.errors.map((e) => ({ field: e.field === "(event)" ? "body" : e.field, message: e.message })),
    );
  }
  return validated;
}

/**
 * The synchronous part of ingestEvents after validation, with the one query it needs (the account's domains):
 * prepares the rows to store and encodes them. What it prepared is garbage once it returns, before the batch waits
 * for the database: with several batches in flight, keeping it alive through that wait would have the young
 * generation's collections copy it and promote it to the old generation.
 */
async function prepareEvents(db: Db, accountId: string, validated: ReturnType<typeof validateBatch>) {
  const accountRows = await accountDomains(db, accountId);
  const domainOf = domainMatcher(accountRows);
  // The operators' IP range lists as last fetched (a query every five minutes at most).
  await loadStoredRangeFeeds(db);
  const rejected: RejectedEvent[] = [...validated.rejected];
  const rows: NewVisit[] = [];
  const unregistered = new Set<string>();
  let skipped = 0;
  const signatures: PendingSignature[] = [];
  // A batch's events name one domain or a few, mostly in runs: its id and prepareVisit's options are looked up and
  // made once per run, not per event.
  let runDomain: string | undefined;
  let runDomainId: string | undefined;
  let runOptions = { domain: "", signatures };
  for (const { index, event, key } of validated.accepted) {
    if (event.domain !== runDomain) {
      runDomain = event.domain;
      runDomainId = domainOf(event.domain);
      runOptions = { domain: event.domain, signatures };
    }
    const domainId = runDomainId;
    if (!domainId) {
      unregistered.add(event.domain);
      rejected.push({ index, errors: [{ field: "domain", message: "is not registered on this account" }] });
      continue;
    }
    const visit: VisitFields = {
      occurredAt: event.timestamp,
      path: event.path,
      userAgent: event.userAgent,
      ip: event.ip,
      referrer: event.referrer,
      status: event.status,
    };
    // The signed request's fields only where there are some: an unsigned event's visit stays as small as it was.
    if (event.signature !== undefined) {
      visit.signature = event.signature;
      visit.signatureInput = event.signatureInput;
      visit.signatureAgent = event.signatureAgent;
      visit.host = event.host;
      visit.method = event.method;
    }
    const row = prepareVisit(domainId, visit, key, runOptions);
    if (row) rows.push(row);
    else skipped++;
  }
  if (
    unregistered.size > 0 &&
    unregistered.size === new Set(validated.accepted.map((a) => a.event.domain)).size
  ) {
    throw new ApiError("FORBIDDEN_SCOPE", "None of the events' domains is registered on this account.", {
      domains: [...unregistered].sort(),
    });
  }
  const verifier = ingestReverseDnsVerifier();
  const pending = settleFromCache(rows, verifier);
  rejected.sort((a, b) => a.index - b.index);
  return {
    encoded: rows.length > 0 ? encodeVisitBatch(rows) : null,
    citationsAwaited: accountRows[0]?.citationsAwaited === true,
    pending,
    verifier,
    signatures,
    prepared: rows.length,
    received: validated.accepted.length + validated.rejected.length,
    skipped,
    rejected,
  };
}

/** The longest line of a Vercel drain's JSON lines: a record with the longest function output Vercel sends. */
const VERCEL_MAX_LINE = 300 * 1024;

/** The longest request id a log record may key its visit by (Vercel's are 36 to 40 characters). */
const MAX_REQUEST_ID = 128;

/**
 * Whether a request's Host is the domain's site: the domain itself or a subdomain of it, with or without "www.",
 * any port, letter case or spelling of an international name (the one hostname normaliser's). A stream holds few
 * hosts: the last one's answer is kept.
 */
function siteMatcher(domain: string): (host: string) => boolean {
  const bare = (h: string) =>
    normalizeHostname(h.trim().replace(/:\d+$/, ""), { acceptUrl: false, requireDomain: false })?.replace(
      /^www\./,
      "",
    ) ?? null;
  const site = bare(domain);
  let last: { host: string; ours: boolean } | null = null;
  return (host) => {
    if (last?.host !== host) {
      const h = bare(host);
      last = { host, ours: h !== null && (h === site || h.endsWith(`.${site}`)) };
    }
    return last.ours;
  };
}

/**
 * POST /tracking/logs: an access log of one registered domain, in the format `options.format` names or, by
 * default, the one each line's shape shows (combined, common, vhost-combined, JSON lines, ALB, CloudFront). Unreadable lines are
 * reported (the first 100, and a count), never fatal. A line's key is a hash of its fields plus its occurrence
 * number among identical lines of the upload, so uploading the same log twice records nothing new.
 */
export async function ingestLog(
  db: Db,
  accountId: string,
  domain: string,
  source: LogSource | (() => Promise<LogSource>),
  options: { now?: () => number; format?: LogFormat } = {},
): Promise<LogsIngestResult> {
  const row = await requireRegisteredDomain(db, accountId, domain);
  await loadStoredRangeFeeds(db);
  // The body is read only once the domain is known to be the account's.
  const log = typeof source === "function" ? await source() : source;
  const now = (options.now ?? Date.now)();
  const seen = new Map<string, number>();
  const requests = new Set<string>();
  const ofThisSite = siteMatcher(row.hostname);
  const rejected: { line: number; reason: string }[] = [];
  let rejectedCount = 0;
  let lines = 0;
  let accepted = 0;
  let prepared = 0;
  let skipped = 0;
  let batch: NewVisit[] = [];
  const reject = (line: number, reason: string) => {
    rejectedCount++;
    if (rejected.length < LOG_REJECTED_REPORTED) rejected.push({ line, reason });
  };
  const verifier = ingestReverseDnsVerifier();
  let signatures: PendingSignature[] = [];
  const flush = async () => {
    const pending = settleFromCache(batch, verifier);
    accepted += await recordVisits(db, batch);
    verifyInBackground(db, pending, verifier);
    settleSignaturesInBackground(db, signatures);
    signatures = [];
    prepared += batch.length;
    batch = [];
    await yieldToServer();
  };
  let slice = performance.now();
  const batchSize = runsOnThisThread(db) ? LOG_BATCH_IN_PROCESS : LOG_BATCH;
  const parseOptions = {
    format: options.format,
    // A Vercel record carries its function's output line (up to 256 KB) beside the request.
    maxLineLength: options.format === "vercel" ? VERCEL_MAX_LINE : undefined,
  };
  for await (const result of parseLogStream(jsonArrayAsRecords(log), parseOptions)) {
    lines++;
    if ((lines & 63) === 0 && performance.now() - slice > LOG_SLICE_MS) {
      await yieldToServer();
      slice = performance.now();
    }
    if (!result.ok && result.skip) {
      skipped++; // read, but no request to record ("-" request line of a 400 or 408)
      continue;
    }
    if (!result.ok) {
      reject(result.error.line, result.error.reason);
      continue;
    }
    const e = result.entry;
    if (e.site && !ofThisSite(e.site)) {
      skipped++; // a request for another site of the same stream (another project of a team-wide drain)
      continue;
    }
    // A request logged in several records (one per line its function wrote) is one visit, whichever upload holds
    // its records.
    const requestKey = e.requestId && e.requestId.length <= MAX_REQUEST_ID ? `rq:${e.requestId}` : null;
    if (requestKey) {
      if (requests.has(requestKey)) {
        skipped++;
        continue;
      }
      requests.add(requestKey);
    }
    const at = e.timestamp.getTime();
    if (at > now + MAX_FUTURE_MS) {
      reject(e.line, "timestamp is more than 5 minutes in the future");
      continue;
    }
    // As an event's: the months the runner keeps ready begin 90 days back, so an older visit's month may have no
    // partition (it would wait in the default one).
    if (at < now - MAX_AGE_MS) {
      reject(e.line, "timestamp is more than 90 days old");
      continue;
    }
    const fields = {
      domain: row.hostname,
      path: e.path,
      userAgent: e.userAgent ?? "",
      ip: e.ip ?? undefined,
      referrer: e.referrer ?? undefined,
      status: e.status ?? undefined,
      timestamp: e.timestamp,
    };
    const base = requestKey ?? eventKey(fields);
    const n = requestKey ? 1 : (seen.get(base) ?? 0) + 1;
    if (!requestKey) seen.set(base, n);
    // The key is the line's as written; the address is stored as an event's is: IPv6 in its canonical text, an
    // IPv4-mapped address as IPv4.
    if (fields.ip?.includes(":")) fields.ip = normaliseIp(fields.ip) ?? undefined;
    const signed = e.signature
      ? {
          method: e.method,
          signature: e.signature,
          signatureInput: e.signatureInput,
          signatureAgent: e.signatureAgent,
          host: e.host,
        }
      : null;
    const visit = prepareVisit(
      row.id,
      signed ? { ...fields, occurredAt: e.timestamp, ...signed } : { ...fields, occurredAt: e.timestamp },
      n === 1 ? base : `${base}#${n}`,
      { domain: row.hostname, signatures },
    );
    if (!visit) {
      skipped++;
      continue;
    }
    batch.push(visit);
    if (batch.length >= batchSize) await flush();
  }
  await flush();
  return {
    domain: row.hostname,
    lines,
    accepted,
    duplicates: prepared - accepted,
    skipped,
    rejectedCount,
    rejected,
  };
}
