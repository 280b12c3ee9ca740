// Playwright's web server: a fresh database (a new PGlite folder, or DATABASE_URL as CI made it),
// seeded accounts whose credentials the specs read, then the production build on E2E_PORT.
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { appendFileSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import bcrypt from "bcryptjs";
import { eq } from "drizzle-orm";
import { createAccount } from "@/lib/accounts/accounts";
import { registerDomain } from "@/lib/accounts/domains";
import { migrateDatabase, openDatabase } from "@/lib/db/client";
import { users } from "@/lib/db/schema";
import { createGuardedFetch } from "@/lib/fetch";
import { rotateKeyPair } from "@/lib/keys/keys";
import { serverNodeFlags, serverProcessEnv } from "@/lib/server/node-flags";
import { refreshStoredRangeFeeds } from "@/lib/tracking/catalog/ip-ranges/stored-feeds";
import { startFakeBotRanges } from "@/test/fakes/bot-ranges";
import { brandAnswers, startMonitorEngines } from "@/test/fakes/monitor-engines";
import { startFakeSmtp } from "@/test/fakes/smtp";
import { startFakeStripe } from "@/test/fakes/stripe";
import { startSiteFixture } from "@/test/fixtures/site/server";

const port = process.env.E2E_PORT ?? "3210";
const env: NodeJS.ProcessEnv = { ...process.env };
// The dashboard spec signs in (next-auth needs a secret) and audits the fixture site on loopback.
env.AUTH_SECRET ??= randomBytes(32).toString("base64url");
env.AUTH_TRUST_HOST ??= "true";
env.ALLOW_PRIVATE_TARGETS ??= "loopback";
// The production server stores webhook signing secrets (and connection credentials) sealed with this key.
env.DATA_ENCRYPTION_KEY ??= randomBytes(32).toString("base64");
// The four AI engines are local fakes of their providers' APIs, answering about a coffee roaster whose
// monitor the monitors spec creates (the brand named in about half the answers, its page cited in some).
const engines = await startMonitorEngines({
  answer: brandAnswers({
    brand: "Northwind Roasters",
    domain: "northwind-roasters.com",
    competitor: "beanco.com",
    mentionRate: 0.5,
    citeRate: 0.4,
  }),
  seed: 35,
});
for (const [name, value] of Object.entries(engines.env)) env[name] ??= value;
// Every other provider is configured, at a closed local port: the tools that need one are created and billed as in
// production, then fail (the provider cannot be reached) and are refunded. Nothing leaves the machine.
const CLOSED_PORT = "http://127.0.0.1:9";
for (const provider of ["OPENAI", "ANTHROPIC", "GEMINI", "PERPLEXITY"]) {
  env[`${provider}_API_KEY`] ??= "e2e-offline";
  env[`${provider}_BASE_URL`] ??= CLOSED_PORT;
}
env.DATAFORSEO_LOGIN ??= "e2e";
env.DATAFORSEO_PASSWORD ??= "e2e-offline";
env.DATAFORSEO_BASE_URL ??= CLOSED_PORT;
if (!process.env.DATABASE_URL) {
  env.PGLITE_DATA_DIR = path.join(mkdtempSync(path.join(os.tmpdir(), "e2e-pglite-")), "db");
}

const handle = await openDatabase({ dataDir: env.PGLITE_DATA_DIR });
await migrateDatabase(handle);
const accounts: Record<string, unknown> = {};
for (const [name, extra] of [
  ["main", 1000],
  ["other", 0],
  ["limited", 0],
  // e2e/api/newman.spec.ts runs the Postman collection with it: every tool once (refunded when the job fails).
  ["newman", 5000],
] as const) {
  const { account, user } = await createAccount(handle.db, {
    ownerEmail: `e2e-${name}-${Date.now()}@example.com`,
    extraGrant: extra || undefined,
  });
  await registerDomain(handle.db, account.id, `${name}.e2e.example.com`);
  const key = await rotateKeyPair(handle.db, account.id, {
    createdByUserId: user.id,
    rateLimitPerMinute: name === "limited" ? 60 : 100_000,
  });
  accounts[name] = {
    accountId: account.id,
    key: key.keyId,
    secret: key.secret,
    domain: `${name}.e2e.example.com`,
  };
}
// A person who runs the service (the admin CLI's `operator` flag), signing in with a password: the operator page.
{
  const email = `e2e-operator-${Date.now()}@example.com`;
  const password = randomBytes(12).toString("base64url");
  const { account, user } = await createAccount(handle.db, { ownerEmail: email, extraGrant: 1000 });
  await handle.db
    .update(users)
    .set({ passwordHash: await bcrypt.hash(password, 10), emailVerified: new Date(), isOperator: true })
    .where(eq(users.id, user.id));
  await registerDomain(handle.db, account.id, "operator.e2e.example.com");
  const key = await rotateKeyPair(handle.db, account.id, {
    createdByUserId: user.id,
    rateLimitPerMinute: 100_000,
  });
  accounts.operator = { email, password, accountId: account.id, key: key.keyId, secret: key.secret };
}
// The crawler operators' IP range lists, served locally (the committed files as whole lists) and fetched into the
// database before the server starts, as a runner would: the server's ingest verifies against them.
const operators = await startFakeBotRanges();
env.BOT_RANGES_BASE_URL ??= operators.url;
await refreshStoredRangeFeeds(handle.db, {
  config: { baseUrl: env.BOT_RANGES_BASE_URL },
  fetch: createGuardedFetch({ allowPrivateTargets: "loopback" }),
});
await handle.close();
mkdirSync("reports", { recursive: true });
writeFileSync("reports/e2e-accounts.json", JSON.stringify(accounts, null, 2));

// The planted fixture website the dashboard spec audits; its address is written per server port.
const fixture = await startSiteFixture();
writeFileSync(`reports/e2e-fixture-${port}.json`, JSON.stringify({ url: fixture.url }, null, 2));

// Email goes to a local SMTP server; each message is appended to a file the specs read (e2e/mail.ts).
const mailLog = `reports/e2e-mail-${port}.jsonl`;
writeFileSync(mailLog, "");
const smtp = await startFakeSmtp((mail) => {
  appendFileSync(
    mailLog,
    `${JSON.stringify({ to: mail.to, subject: mail.subject, text: mail.text, links: mail.links })}\n`,
  );
});
env.SMTP_URL ??= smtp.url;
// Stripe is a local server speaking its API and signing its webhooks; its payment page pays with one click.
env.STRIPE_SECRET_KEY ??= `sk_test_e2e_${randomBytes(8).toString("hex")}`;
env.STRIPE_WEBHOOK_SECRET ??= `whsec_e2e_${randomBytes(16).toString("hex")}`;
const stripe = await startFakeStripe({
  secretKey: env.STRIPE_SECRET_KEY,
  webhookSecret: env.STRIPE_WEBHOOK_SECRET,
  webhookUrl: `http://127.0.0.1:${port}/api/webhooks/stripe`,
});
env.STRIPE_API_BASE_URL ??= stripe.baseUrl;

// The production server: Next behind a socket it owns, as `npm start` runs it.
env.PUBLIC_BASE_URL ??= `http://127.0.0.1:${port}`;
const server = spawn(
  process.execPath,
  [...serverNodeFlags(env), "--import", "tsx", path.join(process.cwd(), "server.ts")],
  {
    stdio: "inherit",
    // The specs run in one browser on 127.0.0.1; trusting it as a proxy lets a spec that signs up more people
    // than one address may per hour say which client it plays (X-Forwarded-For), as a real proxy would.
    env: {
      ...env,
      ...serverProcessEnv(env),
      NODE_ENV: "production",
      PORT: port,
      HOST: "127.0.0.1",
      TRUST_PROXY: "127.0.0.1, ::1",
    },
  },
);
for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => server.kill(signal));
server.on("exit", (code) => {
  void Promise.all([
    fixture.close(),
    smtp.close(),
    stripe.close(),
    engines.close(),
    operators.close(),
  ]).finally(() => process.exit(code ?? 0));
});
