// A local Stripe for tests: the Checkout Sessions endpoint as the SDK calls it (form-encoded, bearer key,
// Stripe's object and error shapes), a hosted "payment page", and webhook delivery of Stripe's event JSON
// signed the way Stripe signs it (`Stripe-Signature: t=<unix>,v1=<hex HMAC-SHA256 of "t.payload">`).
import { createHmac, randomBytes } from "node:crypto";
import http, { type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface FakeStripeOptions {
  secretKey: string;
  webhookSecret: string;
  /** Where completed payments are delivered (the app's /api/webhooks/stripe). */
  webhookUrl?: string;
}

type FakeSession = Record<string, unknown> & {
  id: string;
  amount_total: number;
  currency: string;
  metadata: Record<string, string>;
  success_url: string;
  cancel_url: string;
};

export interface FakeStripe {
  /** Base URL for STRIPE_API_BASE_URL. */
  baseUrl: string;
  sessions: Map<string, FakeSession>;
  /** Form bodies of the API calls, parsed. */
  requests: { method: string; path: string; authorization?: string; body: Record<string, unknown> }[];
  /** The event Stripe sends when the session is paid, and its signed header. */
  completedEvent(
    sessionId: string,
    overrides?: Partial<FakeSession>,
  ): { payload: string; signature: string; eventId: string };
  /** Signs a payload as Stripe does (with this secret, or another to forge). */
  sign(payload: string, opts?: { secret?: string; timestamp?: number }): string;
  /** Pays the session: delivers `checkout.session.completed` to the webhook URL; resolves with its answer. */
  pay(sessionId: string): Promise<{ status: number; body: unknown; eventId: string }>;
  close(): Promise<void>;
}

const id = (prefix: string) => `${prefix}_test_${randomBytes(12).toString("hex")}`;

/** Parses Stripe's form encoding (`a[b][0][c]=v`) into nested objects and arrays. */
function parseStripeForm(raw: string): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  for (const [key, value] of new URLSearchParams(raw)) {
    const parts = key.split(/\[|\]\[|\]/).filter((p) => p !== "");
    let node: Record<string, unknown> = root;
    parts.forEach((part, i) => {
      if (i === parts.length - 1) {
        node[part] = value;
        return;
      }
      const nextIsIndex = /^\d+$/.test(parts[i + 1] ?? "");
      node[part] ??= nextIsIndex ? [] : {};
      node = node[part] as Record<string, unknown>;
    });
  }
  return root;
}

function stripeError(res: ServerResponse, status: number, type: string, message: string, param?: string) {
  res.writeHead(status, { "content-type": "application/json", "request-id": id("req") });
  res.end(JSON.stringify({ error: { type, message, ...(param ? { param } : {}) } }));
}

export async function startFakeStripe(opts: FakeStripeOptions): Promise<FakeStripe> {
  const sessions = new Map<string, FakeSession>();
  const requests: FakeStripe["requests"] = [];
  let baseUrl = "";

  const sign: FakeStripe["sign"] = (payload, o = {}) => {
    const t = o.timestamp ?? Math.floor(Date.now() / 1000);
    const v1 = createHmac("sha256", o.secret ?? opts.webhookSecret)
      .update(`${t}.${payload}`, "utf8")
      .digest("hex");
    return `t=${t},v1=${v1}`;
  };

  const completedEvent: FakeStripe["completedEvent"] = (sessionId, overrides = {}) => {
    const session = sessions.get(sessionId);
    if (!session) throw new Error(`no session ${sessionId}`);
    const object = {
      ...session,
      status: "complete",
      payment_status: "paid",
      payment_intent: id("pi"),
      customer_details: {
        address: null,
        email: session.customer_email ?? "buyer@example.com",
        name: "Test Buyer",
        phone: null,
        tax_exempt: "none",
        tax_ids: [],
      },
      ...overrides,
    };
    const eventId = id("evt");
    const event = {
      id: eventId,
      object: "event",
      api_version: "2026-10-28.endive",
      created: Math.floor(Date.now() / 1000),
      data: { object },
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      type: "checkout.session.completed",
    };
    const payload = JSON.stringify(event, null, 2);
    return { payload, signature: sign(payload), eventId };
  };

  const pay: FakeStripe["pay"] = async (sessionId) => {
    if (!opts.webhookUrl) throw new Error("no webhook URL");
    const { payload, signature, eventId } = completedEvent(sessionId);
    const res = await fetch(opts.webhookUrl, {
      method: "POST",
      headers: {
        "content-type": "application/json; charset=utf-8",
        "stripe-signature": signature,
        "user-agent": "Stripe/1.0 (+https://stripe.com/docs/webhooks)",
      },
      body: payload,
    });
    const text = await res.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {}
    return { status: res.status, body, eventId };
  };

  async function createSession(res: ServerResponse, body: Record<string, unknown>) {
    const items =
      (body.line_items as {
        quantity?: string;
        price_data?: { currency?: string; unit_amount?: string; product_data?: { name?: string } };
      }[]) ?? [];
    if (body.mode !== "payment" && body.mode !== "subscription" && body.mode !== "setup") {
      return stripeError(res, 400, "invalid_request_error", "Missing required param: mode.", "mode");
    }
    if (!body.success_url)
      return stripeError(
        res,
        400,
        "invalid_request_error",
        "Missing required param: success_url.",
        "success_url",
      );
    if (items.length === 0)
      return stripeError(
        res,
        400,
        "invalid_request_error",
        "Missing required param: line_items.",
        "line_items",
      );
    const currency = items[0]?.price_data?.currency;
    let total = 0;
    for (const [i, item] of items.entries()) {
      const amount = Number(item.price_data?.unit_amount);
      if (!item.price_data?.currency || !Number.isInteger(amount) || !item.price_data.product_data?.name) {
        return stripeError(
          res,
          400,
          "invalid_request_error",
          "Invalid line item.",
          `line_items[${i}][price_data]`,
        );
      }
      total += amount * Number(item.quantity ?? 1);
    }
    const sessionId = id("cs");
    const now = Math.floor(Date.now() / 1000);
    const session: FakeSession = {
      id: sessionId,
      object: "checkout.session",
      after_expiration: null,
      allow_promotion_codes: null,
      amount_subtotal: total,
      amount_total: total,
      automatic_tax: { enabled: false, liability: null, status: null },
      billing_address_collection: null,
      cancel_url: String(body.cancel_url ?? ""),
      client_reference_id: (body.client_reference_id as string) ?? null,
      client_secret: null,
      created: now,
      currency: String(currency),
      customer: null,
      customer_creation: "if_required",
      customer_details: null,
      customer_email: (body.customer_email as string) ?? null,
      expires_at: now + 24 * 60 * 60,
      invoice: null,
      livemode: false,
      locale: null,
      metadata: (body.metadata as Record<string, string>) ?? {},
      mode: String(body.mode),
      payment_intent: null,
      payment_link: null,
      payment_method_types: ["card"],
      payment_status: "unpaid",
      status: "open",
      success_url: String(body.success_url),
      total_details: { amount_discount: 0, amount_shipping: 0, amount_tax: 0 },
      ui_mode: "hosted",
      url: `${baseUrl}/c/pay/${sessionId}`,
    };
    sessions.set(sessionId, session);
    res.writeHead(200, { "content-type": "application/json", "request-id": id("req") });
    res.end(JSON.stringify(session));
  }

  // The hosted payment page: one button that pays (delivers the webhook) and returns to success_url.
  function paymentPage(res: ServerResponse, session: FakeSession) {
    const amount = (session.amount_total / 100).toFixed(2);
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    res.end(`<!doctype html><html lang="en"><head><title>Test checkout</title></head><body><main>
<h1>Test checkout</h1><p>${session.currency.toUpperCase()} ${amount}</p>
<form method="post"><button type="submit">Pay ${amount}</button></form>
<p><a href="${session.cancel_url}">Cancel</a></p></main></body></html>`);
  }

  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString("utf8");
    const url = new URL(req.url ?? "/", "http://fake");
    const pay_ = url.pathname.match(/^\/c\/pay\/(cs_test_[0-9a-f]+)$/);
    if (pay_) {
      const session = sessions.get(pay_[1]!);
      if (!session) return stripeError(res, 404, "invalid_request_error", "No such checkout session.");
      if (req.method === "GET") return paymentPage(res, session);
      await pay(session.id);
      res.writeHead(303, { location: session.success_url.replace("{CHECKOUT_SESSION_ID}", session.id) });
      return res.end();
    }
    const body = parseStripeForm(raw);
    requests.push({
      method: req.method ?? "GET",
      path: url.pathname,
      authorization: req.headers.authorization,
      body,
    });
    if (req.headers.authorization !== `Bearer ${opts.secretKey}`) {
      return stripeError(res, 401, "invalid_request_error", "Invalid API Key provided.");
    }
    if (req.method === "POST" && url.pathname === "/v1/checkout/sessions") return createSession(res, body);
    return stripeError(
      res,
      404,
      "invalid_request_error",
      `Unrecognized request URL (${req.method}: ${url.pathname}).`,
    );
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    baseUrl,
    sessions,
    requests,
    completedEvent,
    sign,
    pay,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
