import { randomBytes } from "node:crypto";
import { and, arrayContains, eq, inArray, type SQL, type SQLWrapper, sql } from "drizzle-orm";
import type { DbOrTx } from "@/lib/db/client";
import { domains, webhookDeliveries, webhookEndpoints, webhookEvents } from "@/lib/db/schema";
import type { WebhookEvent } from "./schemas";

/** The Standard Webhooks message id (`webhook-id`): the same on every retry of the message. */
export const newMessageId = () => `msg_${randomBytes(16).toString("base64url")}`;

interface WebhookPayload {
  type: WebhookEvent;
  /** ISO 8601 UTC: when the event happened. */
  timestamp: string;
  data: Record<string, unknown>;
}

/**
 * Writes an event and one pending delivery per enabled endpoint of the account that subscribed to its type.
 * Call it inside the transaction that makes the event true (a job's transition, a charge, a recorded
 * citation): the event exists exactly when what it reports does, and survives any crash after the commit.
 * Nothing is written when no endpoint wants it. `endpointId` narrows it to one endpoint (the test event).
 */
export async function emitWebhookEvent(
  tx: DbOrTx,
  accountId: string,
  type: WebhookEvent,
  data: Record<string, unknown>,
  opts: { endpointId?: string; at?: Date } = {},
): Promise<{ eventId: string; deliveries: number } | null> {
  const endpoints = await tx
    .select({ id: webhookEndpoints.id })
    .from(webhookEndpoints)
    .where(
      and(
        eq(webhookEndpoints.accountId, accountId),
        eq(webhookEndpoints.enabled, true),
        opts.endpointId ? eq(webhookEndpoints.id, opts.endpointId) : undefined,
        // A test event goes to the endpoints asked for whatever they subscribed to.
        type === "webhook.test" ? undefined : arrayContains(webhookEndpoints.events, [type]),
      ),
    );
  if (endpoints.length === 0) return null;
  const eventId = newMessageId();
  const payload: WebhookPayload = { type, timestamp: (opts.at ?? new Date()).toISOString(), data };
  await tx.insert(webhookEvents).values({ id: eventId, accountId, type, payload });
  await tx.insert(webhookDeliveries).values(endpoints.map((e) => ({ eventId, endpointId: e.id })));
  return { eventId, deliveries: endpoints.length };
}

/** An endpoint that is enabled and subscribed to `type`. */
const subscribedTo = (type: WebhookEvent) =>
  and(eq(webhookEndpoints.enabled, true), arrayContains(webhookEndpoints.events, [type]));

/**
 * Whether the account has an enabled endpoint for `type`, as an expression another query selects, so a hot path
 * learns it with a query it makes anyway. `accountId` may be a placeholder of a prepared query.
 */
export function accountListensSql(db: DbOrTx, accountId: SQLWrapper, type: WebhookEvent): SQL<boolean> {
  const endpoints = db
    .select({ one: sql`1` })
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.accountId, accountId), subscribedTo(type)));
  return sql<boolean>`exists (${endpoints})`;
}

/** Which of these accounts have an enabled endpoint for `type` (so a hot path can skip the rest). */
export async function accountsListening(
  tx: DbOrTx,
  accountIds: string[],
  type: WebhookEvent,
): Promise<Set<string>> {
  if (accountIds.length === 0) return new Set();
  const rows = await tx
    .selectDistinct({ accountId: webhookEndpoints.accountId })
    .from(webhookEndpoints)
    .where(and(inArray(webhookEndpoints.accountId, accountIds), subscribedTo(type)));
  return new Set(rows.map((r) => r.accountId));
}

/** Whether the account owning any of these domains has an enabled endpoint for `type`. */
export async function domainsListening(
  db: DbOrTx,
  domainIds: string[],
  type: WebhookEvent,
): Promise<boolean> {
  if (domainIds.length === 0) return false;
  const rows = await db
    .select({ one: webhookEndpoints.accountId })
    .from(webhookEndpoints)
    .innerJoin(domains, eq(domains.accountId, webhookEndpoints.accountId))
    .where(and(inArray(domains.id, domainIds), subscribedTo(type)))
    .limit(1);
  return rows.length > 0;
}
