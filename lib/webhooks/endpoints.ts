import { randomBytes } from "node:crypto";
import { and, count, desc, eq, sql } from "drizzle-orm";
import type { Db, DbOrTx } from "@/lib/db/client";
import { type WebhookEndpoint, webhookDeliveries, webhookEndpoints, webhookEvents } from "@/lib/db/schema";
import { AppError, notFound, requireUuid, validationError } from "@/lib/errors";
import {
  FetchError,
  isIpLiteral,
  lookupAllowed,
  readPrivateTargetPolicy,
  resolveWithSystemDns,
} from "@/lib/fetch";
import { emitWebhookEvent } from "./outbox";
import {
  type DeliveryView,
  MAX_ENDPOINTS,
  PREVIOUS_SECRET_HOURS,
  type WebhookCreateInput,
  type WebhookEndpointView,
  type WebhookEvent,
} from "./schemas";
import { sealSigningSecret } from "./secrets";

const newSigningSecret = () => `whsec_${randomBytes(32).toString("base64")}`;

const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null);

export function endpointView(row: WebhookEndpoint, now = new Date()): WebhookEndpointView {
  const rotating = row.previousSecretExpiresAt && row.previousSecretExpiresAt > now;
  return {
    id: row.id,
    url: row.url,
    events: row.events as WebhookEvent[],
    description: row.description,
    enabled: row.enabled,
    disabledAt: iso(row.disabledAt),
    disabledReason: row.disabledReason,
    createdAt: row.createdAt.toISOString(),
    secretRotatedUntil: rotating ? iso(row.previousSecretExpiresAt) : null,
  };
}

/**
 * A target must be a URL the delivery fetcher may reach: http(s), no credentials, and a host that resolves only
 * to public addresses (the same rule, and the same ALLOW_PRIVATE_TARGETS test/development allowance, as every
 * outbound fetch). Checked at creation; the fetcher checks again at every delivery (DNS can change).
 */
async function checkWebhookTarget(raw: string): Promise<string> {
  const url = new URL(raw);
  const refuse = (message: string, reason: string) =>
    validationError(message, [{ field: "url", message }], { reason });
  if (url.username || url.password)
    throw refuse("The URL must not carry a user name or password.", "credentials");
  url.hash = "";
  const policy = readPrivateTargetPolicy();
  const host = url.hostname.replace(/^\[|\]$/g, "");
  try {
    if (isIpLiteral(url.hostname)) {
      await lookupAllowed(host, async () => [{ address: host, family: host.includes(":") ? 6 : 4 }], policy);
    } else {
      await lookupAllowed(host, resolveWithSystemDns, policy);
    }
  } catch (err) {
    if (err instanceof FetchError) {
      throw refuse(
        err.code === "TARGET_FORBIDDEN"
          ? `${err.message} Webhooks are only sent to public addresses.`
          : err.message,
        err.code === "TARGET_FORBIDDEN" ? "private_target" : "unresolvable_host",
      );
    }
    throw err;
  }
  return url.href;
}

export async function createEndpoint(
  db: Db,
  accountId: string,
  input: WebhookCreateInput,
): Promise<{ view: WebhookEndpointView; secret: string }> {
  const url = await checkWebhookTarget(input.url);
  const [{ n } = { n: 0 }] = await db
    .select({ n: count() })
    .from(webhookEndpoints)
    .where(eq(webhookEndpoints.accountId, accountId));
  if (n >= MAX_ENDPOINTS) {
    throw validationError(
      `An account has at most ${MAX_ENDPOINTS} webhook endpoints; delete one first.`,
      [{ field: "url", message: `At most ${MAX_ENDPOINTS} endpoints.` }],
      { reason: "too_many_endpoints" },
    );
  }
  const secret = newSigningSecret();
  const stored = sealSigningSecret(process.env, accountId, secret);
  const [row] = await db
    .insert(webhookEndpoints)
    .values({ accountId, url, events: input.events, description: input.description ?? null, secret: stored })
    .returning();
  return { view: endpointView(row!), secret };
}

export async function listEndpoints(db: DbOrTx, accountId: string): Promise<WebhookEndpoint[]> {
  return db
    .select()
    .from(webhookEndpoints)
    .where(eq(webhookEndpoints.accountId, accountId))
    .orderBy(webhookEndpoints.createdAt);
}

/** The account's endpoint, or NOT_FOUND (also for a malformed id or another account's endpoint). */
export async function requireEndpoint(db: DbOrTx, accountId: string, id: string): Promise<WebhookEndpoint> {
  requireUuid(id, "Webhook endpoint");
  const [row] = await db
    .select()
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.id, id), eq(webhookEndpoints.accountId, accountId)));
  if (!row) throw notFound("Webhook endpoint");
  return row;
}

export async function deleteEndpoint(db: Db, accountId: string, id: string) {
  const row = await requireEndpoint(db, accountId, id);
  // Deliveries first, then the endpoint: the order a delivery's outcome takes its locks in (its delivery row,
  // then the endpoint's failure clock), so removing an endpoint while a delivery finishes waits instead of
  // deadlocking.
  await db.transaction(async (tx) => {
    await tx.delete(webhookDeliveries).where(eq(webhookDeliveries.endpointId, row.id));
    await tx.delete(webhookEndpoints).where(eq(webhookEndpoints.id, row.id));
  });
  return { id: row.id, deleted: true as const };
}

/** A new secret; the previous one keeps signing beside it for 24 h, so receivers can switch without a gap. */
export async function rotateEndpointSecret(db: Db, accountId: string, id: string) {
  const row = await requireEndpoint(db, accountId, id);
  const secret = newSigningSecret();
  // The previous secret keeps its stored form (sealed, or a plain one from before sealing: both still sign).
  const [updated] = await db
    .update(webhookEndpoints)
    .set({
      secret: sealSigningSecret(process.env, accountId, secret),
      previousSecret: row.secret,
      previousSecretExpiresAt: sql`now() + make_interval(hours => ${PREVIOUS_SECRET_HOURS})`,
    })
    .where(eq(webhookEndpoints.id, row.id))
    .returning();
  return { view: endpointView(updated!), secret };
}

/** Turns a disabled endpoint back on (its failure clock starts afresh). */
export async function enableEndpoint(db: Db, accountId: string, id: string) {
  const row = await requireEndpoint(db, accountId, id);
  const [updated] = await db
    .update(webhookEndpoints)
    .set({ enabled: true, disabledAt: null, disabledReason: null, failingSince: null })
    .where(eq(webhookEndpoints.id, row.id))
    .returning();
  return endpointView(updated!);
}

/** Queues a `webhook.test` event for one endpoint (or every enabled endpoint of the account). */
/** Test events one URL may receive per minute, however many endpoints (of however many accounts) name it. */
export const TEST_SENDS_PER_URL_PER_MINUTE = 5;

/**
 * Refuses a test send that would take any target URL past TEST_SENDS_PER_URL_PER_MINUTE. Counted per URL, not
 * per endpoint or key: ten endpoints on one URL must not multiply what that URL receives. Each URL's count is
 * taken under a transaction lock on it, so concurrent sends cannot both slip under the limit.
 */
async function limitTestSendsPerUrl(tx: DbOrTx, accountId: string, endpointId?: string): Promise<void> {
  const targets = await tx
    .select({ url: webhookEndpoints.url })
    .from(webhookEndpoints)
    .where(
      and(
        eq(webhookEndpoints.accountId, accountId),
        eq(webhookEndpoints.enabled, true),
        endpointId ? eq(webhookEndpoints.id, endpointId) : undefined,
      ),
    );
  const perUrl = new Map<string, number>();
  for (const { url } of targets) perUrl.set(url, (perUrl.get(url) ?? 0) + 1);
  for (const [url, adding] of [...perUrl].sort(([a], [b]) => (a < b ? -1 : 1))) {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`webhook-test:${url}`}, 0))`);
    const [row] = await tx
      .select({
        n: count(),
        // Seconds until the oldest send in the window leaves it (when a further one would be accepted).
        freeIn: sql<number>`ceil(extract(epoch from (min(${webhookDeliveries.createdAt}) + interval '60 seconds' - now())))::int`,
      })
      .from(webhookDeliveries)
      .innerJoin(webhookEvents, eq(webhookEvents.id, webhookDeliveries.eventId))
      .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
      .where(
        and(
          eq(webhookEndpoints.url, url),
          eq(webhookEvents.type, "webhook.test"),
          sql`${webhookDeliveries.createdAt} > now() - interval '60 seconds'`,
        ),
      );
    if ((row?.n ?? 0) + adding > TEST_SENDS_PER_URL_PER_MINUTE) {
      const retryAfterSeconds = Math.min(60, Math.max(1, Number(row?.freeIn ?? 60)));
      throw new AppError(
        "RATE_LIMITED",
        `At most ${TEST_SENDS_PER_URL_PER_MINUTE} test events a minute go to one URL, whichever endpoints name it. Retry after ${retryAfterSeconds} s.`,
        { retryAfterSeconds },
      );
    }
  }
}

export async function sendTestEvent(db: Db, accountId: string, endpointId?: string) {
  if (endpointId) {
    const row = await requireEndpoint(db, accountId, endpointId);
    if (!row.enabled) {
      throw new AppError("VALIDATION_ERROR", "This endpoint is disabled; enable it first.", {
        reason: "endpoint_disabled",
      });
    }
  }
  const emitted = await db.transaction(async (tx) => {
    await limitTestSendsPerUrl(tx, accountId, endpointId);
    return emitWebhookEvent(
      tx,
      accountId,
      "webhook.test",
      { message: "A test event sent from the dashboard or the API." },
      endpointId ? { endpointId } : {},
    );
  });
  if (!emitted) {
    throw validationError(
      "The account has no enabled webhook endpoint to send a test event to.",
      [{ field: "webhook", message: "No enabled endpoint." }],
      { reason: "no_endpoint" },
    );
  }
  return emitted;
}

function deliveryView(row: {
  id: string;
  eventId: string;
  eventType: string;
  status: "pending" | "succeeded" | "failed";
  attempts: number;
  lastStatusCode: number | null;
  lastLatencyMs: number | null;
  lastError: string | null;
  lastAttemptAt: Date | null;
  nextAttemptAt: Date;
  deliveredAt: Date | null;
  createdAt: Date;
}): DeliveryView {
  return {
    id: row.id,
    eventId: row.eventId,
    eventType: row.eventType,
    status: row.status,
    attempts: row.attempts,
    responseStatus: row.lastStatusCode,
    latencyMs: row.lastLatencyMs,
    error: row.lastError,
    lastAttemptAt: iso(row.lastAttemptAt),
    nextAttemptAt: row.status === "pending" ? row.nextAttemptAt.toISOString() : null,
    deliveredAt: iso(row.deliveredAt),
    createdAt: row.createdAt.toISOString(),
  };
}

/** The endpoint's deliveries, newest first. */
export async function listDeliveries(db: DbOrTx, accountId: string, endpointId: string, limit = 50) {
  const endpoint = await requireEndpoint(db, accountId, endpointId);
  return queryDeliveries(db, endpoint.id, limit);
}

async function queryDeliveries(db: DbOrTx, endpointId: string, limit: number, deliveryId?: string) {
  const rows = await db
    .select({
      id: webhookDeliveries.id,
      eventId: webhookDeliveries.eventId,
      eventType: webhookEvents.type,
      status: webhookDeliveries.status,
      attempts: webhookDeliveries.attempts,
      lastStatusCode: webhookDeliveries.lastStatusCode,
      lastLatencyMs: webhookDeliveries.lastLatencyMs,
      lastError: webhookDeliveries.lastError,
      lastAttemptAt: webhookDeliveries.lastAttemptAt,
      nextAttemptAt: webhookDeliveries.nextAttemptAt,
      deliveredAt: webhookDeliveries.deliveredAt,
      createdAt: webhookDeliveries.createdAt,
    })
    .from(webhookDeliveries)
    .innerJoin(webhookEvents, eq(webhookEvents.id, webhookDeliveries.eventId))
    .where(
      and(
        eq(webhookDeliveries.endpointId, endpointId),
        deliveryId ? eq(webhookDeliveries.id, deliveryId) : undefined,
      ),
    )
    .orderBy(desc(webhookDeliveries.createdAt), desc(webhookDeliveries.id))
    .limit(limit);
  return rows.map(deliveryView);
}

/** Sends a delivery's message again (same `webhook-id`), as a new delivery with its own attempts. */
export async function redeliver(db: Db, accountId: string, endpointId: string, deliveryId: string) {
  const endpoint = await requireEndpoint(db, accountId, endpointId);
  requireUuid(deliveryId, "Delivery");
  const [original] = await db
    .select({ eventId: webhookDeliveries.eventId })
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.id, deliveryId), eq(webhookDeliveries.endpointId, endpoint.id)));
  if (!original) throw notFound("Delivery");
  if (!endpoint.enabled) {
    throw new AppError("VALIDATION_ERROR", "This endpoint is disabled; enable it first.", {
      reason: "endpoint_disabled",
    });
  }
  const [row] = await db
    .insert(webhookDeliveries)
    .values({ eventId: original.eventId, endpointId: endpoint.id })
    .returning({ id: webhookDeliveries.id });
  const [view] = await queryDeliveries(db, endpoint.id, 1, row!.id);
  return view!;
}
