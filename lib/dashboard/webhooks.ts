// The dashboard's webhook and legacy-token layer: the services, behind the owner/admin rule, with their refusals
// as form errors.
import { eq } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { accounts } from "@/lib/db/schema";
import { AppError } from "@/lib/errors";
import { createLegacyToken, listLegacyTokens, revokeLegacyToken } from "@/lib/keys/legacy-tokens";
import {
  createEndpoint,
  deleteEndpoint,
  dismissNotice,
  enableEndpoint,
  endpointView,
  listDeliveries,
  listEndpoints,
  openNotices,
  redeliver,
  rotateEndpointSecret,
  sendTestEvent,
  type WebhookEvent,
  webhookCreateInput,
} from "@/lib/webhooks";
import { FormError } from "./errors";
import { type Actor, requireManager } from "./members";

async function asForm<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof AppError) {
      const field = typeof err.details.field === "string" ? err.details.field : undefined;
      throw new FormError(err.message, field);
    }
    throw err;
  }
}

/** The endpoints with their recent deliveries, the account's credits.low threshold, and open notices. */
export async function webhooksOverview(db: Db, actor: Actor) {
  const endpoints = await listEndpoints(db, actor.accountId);
  const withLog = await Promise.all(
    endpoints.map(async (row) => ({
      ...endpointView(row),
      deliveries: await listDeliveries(db, actor.accountId, row.id, 20),
    })),
  );
  const [account] = await db
    .select({ threshold: accounts.creditsLowThreshold })
    .from(accounts)
    .where(eq(accounts.id, actor.accountId));
  return { endpoints: withLog, creditsLowThreshold: account?.threshold ?? 20 };
}

export async function createWebhookAs(db: Db, actor: Actor, input: { url: string; events: string[] }) {
  requireManager(actor);
  const parsed = webhookCreateInput.safeParse({ url: input.url.trim(), events: input.events });
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new FormError(
      issue?.path[0] === "events" ? "Choose at least one event type." : (issue?.message ?? "Invalid input."),
      String(issue?.path[0] ?? "url"),
    );
  }
  return asForm(() =>
    createEndpoint(db, actor.accountId, { ...parsed.data, events: parsed.data.events as WebhookEvent[] }),
  );
}

export async function deleteWebhookAs(db: Db, actor: Actor, id: string) {
  requireManager(actor);
  return asForm(() => deleteEndpoint(db, actor.accountId, id));
}

export async function rotateWebhookAs(db: Db, actor: Actor, id: string) {
  requireManager(actor);
  return asForm(() => rotateEndpointSecret(db, actor.accountId, id));
}

export async function enableWebhookAs(db: Db, actor: Actor, id: string) {
  requireManager(actor);
  return asForm(() => enableEndpoint(db, actor.accountId, id));
}

/** Any member may send a test event (it changes nothing but the delivery log). */
export async function testWebhookAs(db: Db, actor: Actor, id: string) {
  return asForm(() => sendTestEvent(db, actor.accountId, id));
}

export async function redeliverAs(db: Db, actor: Actor, id: string, deliveryId: string) {
  requireManager(actor);
  return asForm(() => redeliver(db, actor.accountId, id, deliveryId));
}

export async function setCreditsLowThresholdAs(db: Db, actor: Actor, threshold: number) {
  requireManager(actor);
  if (!Number.isInteger(threshold) || threshold < 0 || threshold > 1_000_000) {
    throw new FormError("A whole number of credits from 0 to 1 000 000.", "threshold");
  }
  await db.update(accounts).set({ creditsLowThreshold: threshold }).where(eq(accounts.id, actor.accountId));
}

export const noticesFor = (db: Db, actor: Actor) => openNotices(db, actor.accountId);
export const dismissNoticeAs = (db: Db, actor: Actor, id: string) => dismissNotice(db, actor.accountId, id);

export const legacyTokensFor = (db: Db, actor: Actor) => listLegacyTokens(db, actor.accountId);

export async function createLegacyTokenAs(db: Db, actor: Actor, name: string) {
  requireManager(actor);
  return asForm(() => createLegacyToken(db, actor.accountId, { name, createdByUserId: actor.userId }));
}

export async function revokeLegacyTokenAs(db: Db, actor: Actor, id: string) {
  requireManager(actor);
  return asForm(() => revokeLegacyToken(db, actor.accountId, id));
}
