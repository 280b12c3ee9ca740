// Buying credits against a local Stripe: the Checkout Session the SDK creates, the signed webhook applied
// exactly once over real HTTP, replays and forgeries refused, the ledger invariant kept.
import { eq } from "drizzle-orm";
import Stripe from "stripe";
import { afterAll, describe, expect } from "vitest";
import { POST as stripeWebhook } from "@/app/api/webhooks/stripe/route";
import { startCheckout } from "@/lib/billing/checkout";
import { CREDIT_PACKS, findPack } from "@/lib/billing/packs";
import { listPurchases } from "@/lib/billing/purchases";
import { handleStripeWebhook } from "@/lib/billing/webhook";
import { findLedgerMismatches, getCreditAccount } from "@/lib/credits/credits";
import { type Db, type DbHandle, setDbHandle } from "@/lib/db/client";
import { creditLedger } from "@/lib/db/schema";
import { stripeClient, stripeConfigured, stripeHostOptions } from "@/lib/providers/stripe/client";
import { dbTest } from "@/test/support/fixtures";
import { createTestAccount, type TestAccount } from "../accounts";
import { type FakeStripe, startFakeStripe } from "../fakes/stripe";
import { serveRoutes } from "../support/route-server";

const SECRET_KEY = "sk_test_fake_0123456789";
const WEBHOOK_SECRET = "whsec_test_0123456789abcdef";

const test = dbTest;
let handle: DbHandle;
let db: Db;
let fake: FakeStripe;
let app: { url: string; close(): Promise<void> };
let account: TestAccount;
let stripe: Stripe;
let env: { STRIPE_SECRET_KEY: string; STRIPE_WEBHOOK_SECRET: string; STRIPE_API_BASE_URL: string };

test.beforeAll(async ({ handle: _handle }) => {
  handle = _handle;
  db = handle.db;
  setDbHandle(handle);
  process.env.STRIPE_WEBHOOK_SECRET = WEBHOOK_SECRET;
  app = await serveRoutes({ "POST /api/webhooks/stripe": stripeWebhook });
  fake = await startFakeStripe({
    secretKey: SECRET_KEY,
    webhookSecret: WEBHOOK_SECRET,
    webhookUrl: `${app.url}/api/webhooks/stripe`,
  });
  env = {
    STRIPE_SECRET_KEY: SECRET_KEY,
    STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
    STRIPE_API_BASE_URL: fake.baseUrl,
  };
  stripe = stripeClient(env)!;
  account = await createTestAccount(db, { credits: 100 });
});

afterAll(async () => {
  delete process.env.STRIPE_WEBHOOK_SECRET;
  setDbHandle(undefined);
  await app?.close();
  await fake?.close();
});

const buyer = () => ({ accountId: account.accountId, userId: "u", email: account.email });

describe("configuration", () => {
  test("Stripe is configured only with both the key and the webhook secret", () => {
    expect(stripeConfigured({})).toBe(false);
    expect(stripeConfigured({ STRIPE_SECRET_KEY: SECRET_KEY })).toBe(false);
    expect(stripeClient({ STRIPE_SECRET_KEY: SECRET_KEY })).toBeNull();
    expect(stripeConfigured(env)).toBe(true);
  });

  test("the base URL becomes the SDK's host, port and protocol", () => {
    expect(stripeHostOptions(undefined)).toEqual({});
    expect(stripeHostOptions("http://127.0.0.1:4242")).toEqual({
      host: "127.0.0.1",
      port: "4242",
      protocol: "http",
    });
    expect(stripeHostOptions("https://stripe.internal")).toEqual({
      host: "stripe.internal",
      port: 443,
      protocol: "https",
    });
  });

  test("packs have unique ids, whole credits and prices", () => {
    expect(new Set(CREDIT_PACKS.map((p) => p.id)).size).toBe(CREDIT_PACKS.length);
    for (const p of CREDIT_PACKS) expect(Number.isInteger(p.credits) && Number.isInteger(p.price)).toBe(true);
  });
});

describe("checkout", () => {
  test("creates a payment-mode session priced from the pack, with the account in its metadata", async () => {
    const pack = findPack("growth")!;
    const { url, sessionId } = await startCheckout(stripe, buyer(), "growth", "https://app.example");
    expect(url).toBe(`${fake.baseUrl}/c/pay/${sessionId}`);
    const req = fake.requests.at(-1)!;
    expect(req).toMatchObject({
      method: "POST",
      path: "/v1/checkout/sessions",
      authorization: `Bearer ${SECRET_KEY}`,
    });
    expect(req.body).toMatchObject({
      mode: "payment",
      client_reference_id: account.accountId,
      customer_email: account.email,
      metadata: { accountId: account.accountId, packId: "growth", credits: String(pack.credits) },
      line_items: [{ quantity: "1", price_data: { currency: "usd", unit_amount: String(pack.price) } }],
      success_url: "https://app.example/dashboard/billing?checkout=success&session_id={CHECKOUT_SESSION_ID}",
      cancel_url: "https://app.example/dashboard/billing?checkout=cancelled",
    });
  });

  test("an unknown pack is refused before Stripe is called", async () => {
    const before = fake.requests.length;
    await expect(startCheckout(stripe, buyer(), "platinum", "https://app.example")).rejects.toThrow(
      /credit packs/,
    );
    expect(fake.requests.length).toBe(before);
  });

  test("a refused API key is a clear error, not a crash", async () => {
    const bad = stripeClient({ ...env, STRIPE_SECRET_KEY: "sk_test_wrong" })!;
    await expect(startCheckout(bad, buyer(), "starter", "https://app.example")).rejects.toThrow(
      /Nothing was charged/,
    );
  });
});

describe("webhook", () => {
  test("a paid session credits its pack once: replays of the event are no-ops", async () => {
    const pack = findPack("starter")!;
    const { sessionId } = await startCheckout(stripe, buyer(), "starter", "https://app.example");
    const before = (await getCreditAccount(db, account.accountId)).balance;

    const first = await fake.pay(sessionId);
    expect(first).toMatchObject({ status: 200, body: { received: true, result: "credited" } });
    const after = await getCreditAccount(db, account.accountId);
    expect(after.balance).toBe(before + pack.credits);
    expect(after.recentTransactions[0]).toMatchObject({ type: "purchase", amount: pack.credits });

    // Stripe retries deliver the same event id: nothing moves.
    const rows = await db.select().from(creditLedger).where(eq(creditLedger.eventId, first.eventId));
    expect(rows).toHaveLength(1);
    const payload = fake.completedEvent(sessionId);
    const replayBody = payload.payload.replace(/"id": "evt_test_[0-9a-f]+"/, `"id": "${first.eventId}"`);
    const replays = await Promise.all(
      [1, 2, 3].map(() =>
        fetch(`${app.url}/api/webhooks/stripe`, {
          method: "POST",
          headers: { "stripe-signature": fake.sign(replayBody), "content-type": "application/json" },
          body: replayBody,
        }).then(async (r) => ({ status: r.status, body: await r.json() })),
      ),
    );
    for (const r of replays)
      expect(r).toEqual({ status: 200, body: { received: true, result: "duplicate: already applied" } });
    // A second event for the same session (a different id) cannot credit it again either.
    const again = await handleStripeWebhook(db, payload.payload, payload.signature, env);
    expect(again.body.result).toBe("duplicate: already applied");
    expect((await getCreditAccount(db, account.accountId)).balance).toBe(before + pack.credits);

    const receipts = await listPurchases(db, account.accountId);
    expect(receipts[0]).toMatchObject({
      checkoutSessionId: sessionId,
      eventId: first.eventId,
      packId: "starter",
      credits: pack.credits,
      amountTotal: pack.price,
      currency: "usd",
      customerEmail: account.email,
    });
    expect(receipts[0]!.paymentIntentId).toMatch(/^pi_test_/);
    expect(await findLedgerMismatches(db)).toEqual([]);
  });

  test("concurrent deliveries of one event credit once", async () => {
    const { sessionId } = await startCheckout(stripe, buyer(), "starter", "https://app.example");
    const before = (await getCreditAccount(db, account.accountId)).balance;
    const { payload, signature } = fake.completedEvent(sessionId);
    const outcomes = await Promise.all(
      Array.from({ length: 5 }, () => handleStripeWebhook(db, payload, signature, env)),
    );
    expect(outcomes.filter((o) => o.body.result === "credited")).toHaveLength(1);
    expect((await getCreditAccount(db, account.accountId)).balance).toBe(before + 1000);
  });

  const refusals: {
    name: string;
    make: (sessionId: string) => { payload: string; signature: string | null };
    status: number;
    error: RegExp;
  }[] = [
    {
      name: "a signature made with another secret",
      make: (s) => {
        const e = fake.completedEvent(s);
        return { payload: e.payload, signature: fake.sign(e.payload, { secret: "whsec_attacker" }) };
      },
      status: 400,
      error: /does not match/,
    },
    {
      name: "a payload changed after signing",
      make: (s) => {
        const e = fake.completedEvent(s);
        return {
          payload: e.payload.replace('"amount_total": 1000', '"amount_total": 1'),
          signature: e.signature,
        };
      },
      status: 400,
      error: /does not match/,
    },
    {
      name: "a signature older than the 5-minute tolerance",
      make: (s) => {
        const e = fake.completedEvent(s);
        return {
          payload: e.payload,
          signature: fake.sign(e.payload, { timestamp: Math.floor(Date.now() / 1000) - 600 }),
        };
      },
      status: 400,
      error: /does not match/,
    },
    {
      name: "no signature header",
      make: (s) => ({ payload: fake.completedEvent(s).payload, signature: null }),
      status: 400,
      error: /Missing/,
    },
  ];
  for (const c of refusals) {
    test(`refuses ${c.name}, crediting nothing`, async () => {
      const { sessionId } = await startCheckout(stripe, buyer(), "starter", "https://app.example");
      const before = (await getCreditAccount(db, account.accountId)).balance;
      const { payload, signature } = c.make(sessionId);
      const res = await fetch(`${app.url}/api/webhooks/stripe`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          ...(signature ? { "stripe-signature": signature } : {}),
        },
        body: payload,
      });
      expect(res.status).toBe(c.status);
      expect((await res.json()).error).toMatch(c.error);
      expect((await getCreditAccount(db, account.accountId)).balance).toBe(before);
    });
  }

  const ignored: { name: string; overrides: Record<string, unknown>; result: RegExp }[] = [
    {
      name: "an unpaid session (delayed payment method)",
      overrides: { payment_status: "unpaid" },
      result: /payment unpaid/,
    },
    {
      name: "an amount that is not the pack's price",
      overrides: { amount_total: 1 },
      result: /amount does not match/,
    },
    { name: "another currency", overrides: { currency: "eur" }, result: /amount does not match/ },
    {
      name: "an unknown pack",
      overrides: { metadata: { accountId: "x", packId: "gold" } },
      result: /not a credit pack/,
    },
    {
      name: "an unknown account",
      overrides: { metadata: { accountId: "00000000-0000-4000-8000-000000000000", packId: "starter" } },
      result: /unknown account/,
    },
  ];
  for (const c of ignored) {
    test(`acknowledges but does not credit ${c.name}`, async () => {
      const { sessionId } = await startCheckout(stripe, buyer(), "starter", "https://app.example");
      const before = (await getCreditAccount(db, account.accountId)).balance;
      const { payload, signature } = fake.completedEvent(sessionId, c.overrides);
      const outcome = await handleStripeWebhook(db, payload, signature, env);
      expect(outcome.status).toBe(200);
      expect(outcome.body.result).toMatch(c.result);
      expect((await getCreditAccount(db, account.accountId)).balance).toBe(before);
    });
  }

  test("other event types are acknowledged and ignored", async () => {
    const payload = JSON.stringify({
      id: "evt_test_other",
      object: "event",
      type: "customer.created",
      data: { object: {} },
    });
    const outcome = await handleStripeWebhook(db, payload, fake.sign(payload), env);
    expect(outcome).toEqual({ status: 200, body: { received: true, result: "ignored: customer.created" } });
  });

  test("the fake's signature is the one Stripe's SDK produces", () => {
    const payload = '{"id":"evt_test_x"}';
    const timestamp = 1_700_000_000;
    expect(fake.sign(payload, { timestamp })).toBe(
      Stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET, timestamp }),
    );
  });

  test("without STRIPE_WEBHOOK_SECRET the endpoint says so", async () => {
    const outcome = await handleStripeWebhook(db, "{}", "t=1,v1=x", {});
    expect(outcome.status).toBe(503);
    expect(outcome.body.error).toMatch(/STRIPE_WEBHOOK_SECRET/);
  });
});
