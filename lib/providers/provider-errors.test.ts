// Every adapter's failure is a ProviderError: callers read `provider`, `code` and `retryable` without knowing
// the adapter. Each case below is a fake speaking the provider's real wire format (or a real closed port).
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createGuardedFetch } from "@/lib/fetch";
import { type FakeEngines, startFakeEngines } from "@/test/fakes/ai/engines";
import { type FakeCrux, startFakeCrux } from "@/test/fakes/crux";
import { type FakeDataForSeo, startFakeDataForSeo } from "@/test/fakes/dataforseo";
import { type FakeGoogle, startFakeGoogle } from "@/test/fakes/google";
import { type FakePlausible, startFakePlausible } from "@/test/fakes/plausible";
import { type FakeStripe, startFakeStripe } from "@/test/fakes/stripe";
import { fetchKeyDirectory } from "./agent-keys/directory";
import { ENGINE_ADAPTERS } from "./ask-engine";
import { fetchCruxRecord, readCruxConfig } from "./crux";
import { type DataForSeoConfig, postLiveTask, readDataForSeoConfig } from "./dataforseo/client";
import { exchangeCode, readGoogleConfig } from "./google";
import { queryPlausible } from "./plausible/client";
import { ProviderError } from "./provider-error";
import { createMailer } from "./smtp/mailer";
import { stripeClient, toStripeError, verifyStripeEvent } from "./stripe/client";

const loopback = createGuardedFetch({ allowPrivateTargets: "loopback" });
const fast = { baseDelayMs: 5, maxDelayMs: 50 };

/** What a caller reads of any provider's failure. */
async function failureOf(promise: Promise<unknown>) {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ProviderError);
  const e = err as ProviderError;
  return { provider: e.provider, code: e.code, retryable: e.retryable, status: e.status, error: e };
}

describe("AI engines", () => {
  let fakes: FakeEngines;
  beforeAll(async () => {
    fakes = await startFakeEngines();
  });
  afterAll(() => fakes?.close());

  test("a rate limit is retryable, with the provider's Retry-After", async () => {
    fakes.openai.enqueue({ status: 429, headers: { "retry-after": "7" } });
    const failure = await failureOf(
      ENGINE_ADAPTERS.ChatGPT({ prompt: "q", env: fakes.env, retry: { ...fast, maxAttempts: 1 } }),
    );
    expect(failure).toMatchObject({
      provider: "openai",
      code: "ENGINE_RATE_LIMITED",
      retryable: true,
      status: 429,
    });
    expect(failure.error.retryAfterMs).toBe(7000);
    expect(failure.error.attempts).toBe(1);
  });

  test("a refused key is not retryable", async () => {
    fakes.anthropic.enqueue({ status: 401, message: "invalid x-api-key" });
    expect(
      await failureOf(ENGINE_ADAPTERS.Claude({ prompt: "q", env: fakes.env, retry: fast })),
    ).toMatchObject({ provider: "anthropic", code: "ENGINE_REJECTED", retryable: false, status: 401 });
  });
});

describe("DataForSEO", () => {
  let fake: FakeDataForSeo;
  let config: DataForSeoConfig;
  const path = "/v3/dataforseo_labs/google/keyword_overview/live";
  const task = { keywords: ["cold brew"], location_code: 2840, language_code: "en" };
  beforeAll(async () => {
    fake = await startFakeDataForSeo({ keywords: [] });
    config = readDataForSeoConfig({
      DATAFORSEO_LOGIN: fake.login,
      DATAFORSEO_PASSWORD: fake.password,
      DATAFORSEO_BASE_URL: fake.url,
    })!;
  });
  afterAll(() => fake?.close());

  test("refused credentials (HTTP 401, status 40100) are not retryable", async () => {
    expect(await failureOf(postLiveTask({ ...config, password: "wrong" }, path, task))).toMatchObject({
      provider: "dataforseo",
      code: "DATAFORSEO_AUTH_FAILED",
      retryable: false,
      status: 401,
    });
  });

  test("a refused field (task status 40501) is not retried", async () => {
    fake.failTask(path, 40501, "Invalid Field: 'language_code'.");
    const before = fake.requests.length;
    const failure = await failureOf(postLiveTask(config, path, task, { retry: fast }));
    expect(failure).toMatchObject({ code: "DATAFORSEO_INVALID_REQUEST", retryable: false, status: 40501 });
    expect(fake.requests.length - before).toBe(1);
  });

  test("a rate limit (task status 40202) is retried, then stands", async () => {
    fake.failTask(path, 40202, "Rate limit exceeded.");
    const before = fake.requests.length;
    const failure = await failureOf(postLiveTask(config, path, task, { retry: { ...fast, maxAttempts: 3 } }));
    expect(failure).toMatchObject({ code: "DATAFORSEO_RATE_LIMITED", retryable: true, status: 40202 });
    expect(failure.error.attempts).toBe(3);
    expect(fake.requests.length - before).toBe(3);
  });

  test("a provider that cannot be reached is retryable but not retried (the task may have been billed)", async () => {
    const failure = await failureOf(
      postLiveTask({ ...config, baseUrl: "http://127.0.0.1:9" }, path, task, { retry: fast }),
    );
    expect(failure).toMatchObject({ code: "DATAFORSEO_UNREACHABLE", retryable: true });
    expect(failure.error.attempts).toBe(1);
  });
});

describe("Google", () => {
  let fake: FakeGoogle;
  beforeAll(async () => {
    fake = await startFakeGoogle({ sites: [], search: [], ga4: {} });
  });
  afterAll(() => fake?.close());

  test("a refused authorisation code (invalid_grant) is not retryable", async () => {
    const config = readGoogleConfig(fake.env)!;
    expect(await failureOf(exchangeCode(config, "http://127.0.0.1/callback", "not-a-code"))).toMatchObject({
      provider: "google",
      code: "GOOGLE_GRANT_REVOKED",
      retryable: false,
    });
  });
});

describe("Plausible", () => {
  let fake: FakePlausible;
  beforeAll(async () => {
    fake = await startFakePlausible({ site: "acme-coffee.com", rows: [] });
  });
  afterAll(() => fake?.close());

  const query = { site_id: "acme-coffee.com", metrics: ["visits"], date_range: "7d" };

  test("a refused key (401) is not retryable", async () => {
    expect(
      await failureOf(queryPlausible(loopback, { baseUrl: fake.url, apiKey: "wrong-key-0123456789" }, query)),
    ).toMatchObject({ provider: "plausible", code: "PLAUSIBLE_AUTH_FAILED", retryable: false, status: 401 });
  });

  test("a site the key cannot read (400) is an invalid request", async () => {
    expect(
      await failureOf(
        queryPlausible(
          loopback,
          { baseUrl: fake.url, apiKey: fake.apiKey },
          { ...query, site_id: "other.com" },
        ),
      ),
    ).toMatchObject({ code: "PLAUSIBLE_INVALID_REQUEST", retryable: false, status: 400 });
  });
});

describe("Chrome UX Report", () => {
  let fake: FakeCrux;
  beforeAll(async () => {
    fake = await startFakeCrux();
  });
  afterAll(() => fake?.close());

  test("a refused key (400 INVALID_ARGUMENT) is not retryable", async () => {
    const config = readCruxConfig({ CRUX_API_KEY: "wrong", CRUX_BASE_URL: fake.url })!;
    const failure = await failureOf(fetchCruxRecord(config, "https://acme-coffee.com/", "PHONE"));
    expect(failure).toMatchObject({ provider: "crux", code: "CRUX_REJECTED", retryable: false, status: 400 });
    expect(failure.error.message).toContain("API key not valid");
  });

  test("no record for the page or its origin (404 twice) is CRUX_NO_DATA", async () => {
    const config = readCruxConfig({ CRUX_API_KEY: fake.apiKey, CRUX_BASE_URL: fake.url })!;
    expect(await failureOf(fetchCruxRecord(config, "https://acme-coffee.com/", "PHONE"))).toMatchObject({
      code: "CRUX_NO_DATA",
      retryable: false,
      status: 404,
    });
  });
});

describe("Stripe", () => {
  let fake: FakeStripe;
  beforeAll(async () => {
    fake = await startFakeStripe({ secretKey: "sk_test_right", webhookSecret: "whsec_test" });
  });
  afterAll(() => fake?.close());

  test("a refused API key (401 invalid_request_error) is not retryable", async () => {
    const stripe = stripeClient({
      STRIPE_SECRET_KEY: "sk_test_wrong",
      STRIPE_WEBHOOK_SECRET: "whsec_test",
      STRIPE_API_BASE_URL: fake.baseUrl,
    })!;
    const call = stripe.checkout.sessions
      .create({ mode: "payment", success_url: "https://x.test/ok" })
      .catch((err: unknown) => Promise.reject(toStripeError(err)));
    expect(await failureOf(call)).toMatchObject({
      provider: "stripe",
      code: "STRIPE_AUTH_FAILED",
      retryable: false,
      status: 401,
    });
  });

  test("a forged webhook signature is STRIPE_SIGNATURE_INVALID", async () => {
    const payload = JSON.stringify({ id: "evt_1", type: "checkout.session.completed" });
    const forged = fake.sign(payload, { secret: "whsec_other" });
    expect(
      await failureOf(Promise.resolve().then(() => verifyStripeEvent(payload, forged, "whsec_test"))),
    ).toMatchObject({ provider: "stripe", code: "STRIPE_SIGNATURE_INVALID", retryable: false });
  });
});

describe("SMTP", () => {
  test("a mail server that cannot be reached is retryable", async () => {
    const mailer = createMailer({ SMTP_URL: "smtp://127.0.0.1:9" });
    const failure = await failureOf(mailer.send({ to: "a@example.com", subject: "s", text: "t" }));
    expect(failure).toMatchObject({ provider: "smtp", code: "SMTP_UNREACHABLE", retryable: true });
    expect(failure.error.message).not.toContain("127.0.0.1:9");
  });
});

describe("agent key directories", () => {
  let server: http.Server;
  let base: string;
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      if (req.url === "/busy") res.writeHead(503, { "retry-after": "30" }).end();
      else res.writeHead(200, { "content-type": "application/json" }).end('{"hello":1}');
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  test("a directory that answers 503 may pass; one that is no key set will not", async () => {
    expect(await failureOf(fetchKeyDirectory(`${base}/busy`, { fetch: loopback }))).toMatchObject({
      provider: "agent-keys",
      code: "KEY_DIRECTORY_HTTP_ERROR",
      retryable: true,
      status: 503,
    });
    expect(await failureOf(fetchKeyDirectory(`${base}/keys`, { fetch: loopback }))).toMatchObject({
      code: "KEY_DIRECTORY_NOT_JWKS",
      retryable: false,
    });
  });
});
