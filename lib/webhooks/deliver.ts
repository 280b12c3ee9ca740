import { and, eq, inArray, lte, sql } from "drizzle-orm";
import type { Db, Tx } from "@/lib/db/client";
import { rowsOf } from "@/lib/db/rows";
import { accountNotices, webhookDeliveries, webhookEndpoints } from "@/lib/db/schema";
import { FetchError, type GuardedFetch, guardedFetch } from "@/lib/fetch";
import { DataKeyError } from "@/lib/secrets/data-encryption";
import { DELIVERY_TIMEOUT_MS, DISABLE_AFTER_FAILING_DAYS, RETRY_SCHEDULE_SECONDS } from "./schemas";
import { isPlainSecret, openSigningSecret, sealPlainSecrets } from "./secrets";
import { signatureHeaders } from "./sign";

/** An attempt holds its delivery this long; a process that dies mid-attempt leaves it to be retried after. */
const DELIVERY_LEASE_SECONDS = DELIVERY_TIMEOUT_MS / 1000 + 5;
const MAX_ATTEMPTS = RETRY_SCHEDULE_SECONDS.length + 1;
const USER_AGENT = "Findable-Webhooks/1.0 (Standard Webhooks)";

export interface DeliveryPassReport {
  attempted: number;
  succeeded: number;
  failed: number;
}

interface Claimed {
  id: string;
  attempts: number;
  event_id: string;
  payload: unknown;
  endpoint_id: string;
  account_id: string;
  url: string;
  secret: string;
  previous_secret: string | null;
  previous_secret_expires_at: string | Date | null;
}

/**
 * Sends the deliveries that are due: claims up to `limit` (FOR UPDATE SKIP LOCKED, so runners never send one
 * twice at once), counts the attempt and leases the row, POSTs the signed message through the guarded fetcher
 * (public addresses only, no redirects followed, 10 s), then records the outcome: 2xx is a success; anything
 * else schedules the next attempt (5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h) or, after the last, fails the
 * delivery. An endpoint failing for 5 days without a success is disabled and the account told.
 */
export async function deliverDueWebhooks(
  db: Db,
  opts: { fetch?: GuardedFetch; limit?: number } = {},
): Promise<DeliveryPassReport> {
  const fetcher = opts.fetch ?? guardedFetch;
  const claimed = rowsOf<Claimed>(
    await db.execute(sql`
      with due as (
        select d.id from webhook_deliveries d
        join webhook_endpoints e on e.id = d.endpoint_id
        where d.status = 'pending' and d.next_attempt_at <= now() and e.enabled
        order by d.next_attempt_at
        limit ${opts.limit ?? 20}
        for update of d skip locked
      ),
      upd as (
        update webhook_deliveries d
        set attempts = d.attempts + 1, last_attempt_at = now(),
            next_attempt_at = now() + make_interval(secs => ${DELIVERY_LEASE_SECONDS})
        from due where d.id = due.id
        returning d.id, d.attempts, d.event_id, d.endpoint_id
      )
      select upd.id, upd.attempts, upd.event_id, ev.payload, upd.endpoint_id, e.account_id, e.url, e.secret,
             e.previous_secret, e.previous_secret_expires_at
      from upd
      join webhook_events ev on ev.id = upd.event_id
      join webhook_endpoints e on e.id = upd.endpoint_id`),
  );
  const outcomes = await Promise.all(claimed.map((row) => attempt(db, fetcher, row)));
  return {
    attempted: claimed.length,
    succeeded: outcomes.filter(Boolean).length,
    failed: outcomes.filter((ok) => !ok).length,
  };
}

/** The endpoint's secrets in clear for signing (sealed ones opened with the data key). */
function openSecrets(row: Claimed): { secret: string; previousSecret: string | null } {
  return {
    secret: openSigningSecret(process.env, row.account_id, row.secret),
    previousSecret:
      row.previous_secret === null
        ? null
        : openSigningSecret(process.env, row.account_id, row.previous_secret),
  };
}

async function attempt(db: Db, fetcher: GuardedFetch, row: Claimed): Promise<boolean> {
  // A row from before secrets were sealed: seal it now, on a server that has the key (it signs the same).
  if (isPlainSecret(row.secret) || (row.previous_secret !== null && isPlainSecret(row.previous_secret))) {
    await sealPlainSecrets(db, process.env, {
      id: row.endpoint_id,
      accountId: row.account_id,
      secret: row.secret,
      previousSecret: row.previous_secret,
    });
  }
  const body = typeof row.payload === "string" ? row.payload : JSON.stringify(row.payload);
  const expires = row.previous_secret_expires_at ? new Date(row.previous_secret_expires_at) : null;
  const started = performance.now();
  let status: number | null = null;
  let error: string | null = null;
  try {
    const secrets = openSecrets(row);
    const headers = {
      ...signatureHeaders({ ...secrets, previousSecretExpiresAt: expires }, row.event_id, body),
      "content-type": "application/json",
      accept: "*/*",
      "user-agent": USER_AGENT,
    };
    const res = await fetcher(row.url, {
      method: "POST",
      body,
      headers,
      timeoutMs: DELIVERY_TIMEOUT_MS,
      redirect: "manual",
      maxRedirects: 0,
      maxBytes: 64 * 1024,
    });
    status = res.status;
    if (status >= 300 && status < 400)
      error = `Redirect (${status}) not followed: answer 2xx at the URL itself.`;
    else if (status < 200 || status >= 300) error = `Answered HTTP ${status}.`;
  } catch (err) {
    error =
      err instanceof FetchError
        ? `${err.code}: ${err.message}`
        : err instanceof DataKeyError
          ? "The endpoint's signing secret cannot be read on this server; nothing was sent. Rotate the secret, or contact support."
          : "The request failed.";
  }
  const latencyMs = Math.round(performance.now() - started);
  const ok = error === null;
  await db.transaction(async (tx) => {
    const final = !ok && row.attempts >= MAX_ATTEMPTS;
    const delay = RETRY_SCHEDULE_SECONDS[row.attempts - 1] ?? 0;
    const [updated] = await tx
      .update(webhookDeliveries)
      .set({
        status: ok ? "succeeded" : final ? "failed" : "pending",
        lastStatusCode: status,
        lastLatencyMs: latencyMs,
        lastError: error,
        deliveredAt: ok ? new Date() : null,
        nextAttemptAt: ok || final ? sql`now()` : sql`now() + make_interval(secs => ${delay})`,
      })
      .where(
        and(
          eq(webhookDeliveries.id, row.id),
          eq(webhookDeliveries.status, "pending"),
          eq(webhookDeliveries.attempts, row.attempts),
        ),
      )
      .returning({ id: webhookDeliveries.id });
    if (!updated) return;
    if (ok) {
      await tx
        .update(webhookEndpoints)
        .set({ failingSince: null })
        .where(eq(webhookEndpoints.id, row.endpoint_id));
      return;
    }
    const [endpoint] = await tx
      .update(webhookEndpoints)
      .set({ failingSince: sql`coalesce(${webhookEndpoints.failingSince}, now())` })
      .where(eq(webhookEndpoints.id, row.endpoint_id))
      .returning({ failingSince: webhookEndpoints.failingSince });
    const failingSince = endpoint?.failingSince;
    if (failingSince && Date.now() - failingSince.getTime() >= DISABLE_AFTER_FAILING_DAYS * 86_400_000) {
      await disableEndpoint(tx, row.endpoint_id, row.account_id, row.url);
    }
  });
  return ok;
}

/** Disables an endpoint that kept failing, fails its pending deliveries and leaves the owner a notice. */
async function disableEndpoint(tx: Tx, endpointId: string, accountId: string, url: string): Promise<void> {
  const reason = `Every delivery failed for ${DISABLE_AFTER_FAILING_DAYS} days.`;
  const [disabled] = await tx
    .update(webhookEndpoints)
    .set({ enabled: false, disabledAt: new Date(), disabledReason: reason })
    .where(and(eq(webhookEndpoints.id, endpointId), eq(webhookEndpoints.enabled, true)))
    .returning({ id: webhookEndpoints.id });
  if (!disabled) return;
  await tx
    .update(webhookDeliveries)
    .set({ status: "failed", lastError: "The endpoint was disabled." })
    .where(and(eq(webhookDeliveries.endpointId, endpointId), eq(webhookDeliveries.status, "pending")));
  await tx.insert(accountNotices).values({
    accountId,
    kind: "webhook_disabled",
    message: `The webhook endpoint ${url} was disabled: ${reason} Fix it, then enable it again on the Webhooks page.`,
  });
}

/** Pending deliveries whose event is older than their schedule allows are left alone; this purges old history. */
export async function purgeWebhookHistory(db: Db, days = 30): Promise<number> {
  const rows = await db
    .delete(webhookDeliveries)
    .where(
      and(
        inArray(webhookDeliveries.status, ["succeeded", "failed"]),
        lte(webhookDeliveries.createdAt, sql`now() - make_interval(days => ${days})`),
      ),
    )
    .returning({ id: webhookDeliveries.id });
  await db.execute(
    sql`delete from webhook_events ev where ev.created_at <= now() - make_interval(days => ${days})
        and not exists (select 1 from webhook_deliveries d where d.event_id = ev.id)`,
  );
  return rows.length;
}
