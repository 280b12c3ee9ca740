import bcrypt from "bcryptjs";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, vi } from "vitest";
import { grantPendingSignupBonus } from "@/lib/accounts/accounts";
import { getCreditAccount } from "@/lib/credits/credits";
import { getBotPurposeSeries } from "@/lib/dashboard/bot-series";
import { addDomainAs } from "@/lib/dashboard/domains";
import { ForbiddenError, FormError } from "@/lib/dashboard/errors";
import { acceptInvite, createInvite, findOpenInvite } from "@/lib/dashboard/invites";
import {
  createKeyPairAs,
  keyPairsFor,
  revokeKeyPairAs,
  rollKeyPairAs,
  rotateKeyAs,
} from "@/lib/dashboard/keys";
import { type Actor, getActor } from "@/lib/dashboard/members";
import { getSpendSeries } from "@/lib/dashboard/overview";
import { signUp, verifyCredentials } from "@/lib/dashboard/signup";
import { launchTool } from "@/lib/dashboard/tools";
import type { Db, DbHandle } from "@/lib/db/client";
import {
  creditLedger,
  emailTokens,
  invites,
  jobs,
  memberships,
  trackingDailyBots,
  users,
} from "@/lib/db/schema";
import { getActiveKey } from "@/lib/keys/keys";
import { TOOL_NAMES, TOOLS } from "@/lib/tools/catalog";
import { estimateCost } from "@/lib/tools/form";
import { dbTest } from "@/test/support/fixtures";

// The launchers read the catalogue; their price is estimateCost over the form's raw body.
const TOOL_CATALOG = TOOL_NAMES.map((name) => ({
  name,
  cost: (raw: Record<string, unknown>) => estimateCost(TOOLS[name], raw),
}));

import { configureEnginesOffline } from "../support/configure-engines";

const test = dbTest;
let handle: DbHandle;
let db: Db;
let n = 0;
const email = () => `dash${++n}-${process.pid}@example.com`;
const PASSWORD = "correct horse battery";

beforeAll(async () => {
  // The AI tools refuse engines without a key; these tests launch AI jobs without running them.
  configureEnginesOffline();
});
test.beforeAll(async ({ handle: _handle }) => {
  handle = _handle;
  db = handle.db;
});
afterAll(() => {
  vi.unstubAllEnvs();
});

/** A signed-up owner whose address is verified (so the account holds its 100 credits). */
async function ownerActor() {
  const { user } = await signUp(db, { email: email(), password: PASSWORD });
  await db.transaction((tx) => grantPendingSignupBonus(tx, user.id));
  return (await getActor(db, user.id))!;
}

async function joinAs(owner: Actor, role: "admin" | "member"): Promise<Actor> {
  const { user } = await signUp(db, { email: email(), password: PASSWORD });
  const { token } = await createInvite(db, owner, { role });
  await acceptInvite(db, user.id, token);
  return (await getActor(db, user.id, owner.accountId))!;
}

describe("sign-up", () => {
  test("creates the user, an account and the owner membership; the 100-credit grant follows verification", async () => {
    const address = email();
    const { user, account } = await signUp(db, { email: address, password: PASSWORD, name: "Ada" });
    // The grant waits for the address (test/email/email-flows.test.ts follows the emailed link).
    expect((await getCreditAccount(db, account.id)).balance).toBe(0);
    const [token] = await db.select().from(emailTokens).where(eq(emailTokens.userId, user.id));
    expect(token).toMatchObject({ purpose: "verify_email", email: address });
    await db.transaction((tx) => grantPendingSignupBonus(tx, user.id));
    expect(user.email).toBe(address);
    expect(await bcrypt.compare(PASSWORD, user.passwordHash!)).toBe(true);
    expect(user.passwordHash).toMatch(/^\$2[aby]\$12\$/);
    const [membership] = await db.select().from(memberships).where(eq(memberships.userId, user.id));
    expect(membership).toMatchObject({ accountId: account.id, role: "owner" });
    const credits = await getCreditAccount(db, account.id);
    expect(credits.balance).toBe(100);
    expect(credits.recentTransactions).toEqual([expect.objectContaining({ type: "grant", amount: 100 })]);
    const actor = await getActor(db, user.id);
    expect(actor).toMatchObject({ accountId: account.id, role: "owner" });
  });

  test("refuses an email already in use, whatever its case", async () => {
    const address = email();
    await signUp(db, { email: address, password: PASSWORD });
    await expect(signUp(db, { email: address.toUpperCase(), password: PASSWORD })).rejects.toBeInstanceOf(
      FormError,
    );
    const rows = await db.select().from(users).where(eq(users.email, address));
    expect(rows).toHaveLength(1);
  });

  const bad = [
    { name: "short password", input: { email: "a@example.com", password: "short" }, field: "password" },
    { name: "not an email", input: { email: "nope", password: PASSWORD }, field: "email" },
  ];
  for (const c of bad) {
    test(`refuses ${c.name}`, async () => {
      await expect(signUp(db, c.input)).rejects.toMatchObject({ field: c.field });
    });
  }

  test("verifies credentials with bcrypt; wrong password and unknown email give null", async () => {
    const address = email();
    await signUp(db, { email: address, password: PASSWORD });
    expect(await verifyCredentials(db, { email: address, password: PASSWORD })).toMatchObject({
      email: address,
    });
    expect(await verifyCredentials(db, { email: address, password: "wrong password!" })).toBeNull();
    expect(await verifyCredentials(db, { email: email(), password: PASSWORD })).toBeNull();
  });
});

describe("roles are enforced by the services", () => {
  test("a member cannot rotate keys, add domains or invite; an admin and the owner can", async () => {
    const owner = await ownerActor();
    const member = await joinAs(owner, "member");
    expect(member.role).toBe("member");
    await expect(rotateKeyAs(db, member)).rejects.toBeInstanceOf(ForbiddenError);
    await expect(addDomainAs(db, member, "member.example.com")).rejects.toBeInstanceOf(ForbiddenError);
    await expect(createInvite(db, member, { role: "member" })).rejects.toBeInstanceOf(ForbiddenError);
    expect(await getActiveKey(db, owner.accountId)).toBeNull();

    const admin = await joinAs(owner, "admin");
    const pair = await rotateKeyAs(db, admin);
    expect((await getActiveKey(db, owner.accountId))?.keyId).toBe(pair.keyId);
    expect((await addDomainAs(db, admin, "Admin.Example.com")).hostname).toBe("admin.example.com");
    await expect(createInvite(db, admin, { role: "owner" })).rejects.toBeInstanceOf(FormError);
    await rotateKeyAs(db, owner);
    expect((await getActiveKey(db, owner.accountId))?.keyId).not.toBe(pair.keyId);
  });

  test("key pairs: a member sees them but cannot create, roll or revoke; refusals are form errors", async () => {
    const owner = await ownerActor();
    const member = await joinAs(owner, "member");
    const first = await createKeyPairAs(db, owner, "Default");
    await expect(createKeyPairAs(db, member, "CI")).rejects.toBeInstanceOf(ForbiddenError);
    const listed = await keyPairsFor(db, member);
    expect(listed.map((p) => [p.name, p.keyId, p.state])).toEqual([["Default", first.keyId, "active"]]);
    expect(JSON.stringify(listed)).not.toContain(first.secret);
    const id = listed[0]!.id;
    await expect(rollKeyPairAs(db, member, id, "1h")).rejects.toBeInstanceOf(ForbiddenError);
    await expect(revokeKeyPairAs(db, member, id)).rejects.toBeInstanceOf(ForbiddenError);
    await expect(createKeyPairAs(db, owner, "Default")).rejects.toMatchObject({
      name: "FormError",
      field: "name",
    });
    await expect(rollKeyPairAs(db, owner, "not-a-uuid", "1h")).rejects.toBeInstanceOf(FormError);

    const rolled = await rollKeyPairAs(db, owner, id, "7d");
    const after = await keyPairsFor(db, owner);
    expect(after.map((p) => [p.keyId, p.state])).toEqual([
      [rolled.keyId, "active"],
      [first.keyId, "rolling"],
    ]);
    await expect(rollKeyPairAs(db, owner, id, "1h")).rejects.toBeInstanceOf(FormError);
    await revokeKeyPairAs(db, owner, id);
    expect((await keyPairsFor(db, owner)).find((p) => p.id === id)?.state).toBe("revoked");
  });

  test("an invalid domain is a form error", async () => {
    const owner = await ownerActor();
    await expect(addDomainAs(db, owner, "not a domain")).rejects.toMatchObject({ field: "domain" });
  });
});

describe("invites", () => {
  test("create → accept gives a membership with the invite's role; the token works once", async () => {
    const owner = await ownerActor();
    const invited = email();
    const { token } = await createInvite(db, owner, { role: "admin", email: invited });
    expect((await findOpenInvite(db, token))?.invite.role).toBe("admin");
    const [stored] = await db.select().from(invites).where(eq(invites.accountId, owner.accountId));
    expect(stored?.tokenHash).not.toContain(token);
    // The invited address, in another case: addresses compare case-insensitively.
    const { user } = await signUp(db, { email: invited.toUpperCase(), password: PASSWORD });
    expect(await acceptInvite(db, user.id, token)).toEqual({ accountId: owner.accountId, role: "admin" });
    expect(await getActor(db, user.id, owner.accountId)).toMatchObject({
      accountId: owner.accountId,
      role: "admin",
    });
    // Without a preference, the user's own account stays active.
    expect((await getActor(db, user.id))?.accountId).not.toBe(owner.accountId);
    const { user: other } = await signUp(db, { email: email(), password: PASSWORD });
    await expect(acceptInvite(db, other.id, token)).rejects.toBeInstanceOf(FormError);
    expect(await findOpenInvite(db, token)).toBeNull();
  });

  test("an expired or unknown token is refused", async () => {
    const owner = await ownerActor();
    const { token } = await createInvite(db, owner, { role: "member" });
    await db
      .update(invites)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(invites.accountId, owner.accountId));
    const { user } = await signUp(db, { email: email(), password: PASSWORD });
    await expect(acceptInvite(db, user.id, token)).rejects.toBeInstanceOf(FormError);
    await expect(acceptInvite(db, user.id, "unknown-token")).rejects.toBeInstanceOf(FormError);
    const rows = await db.select().from(memberships).where(eq(memberships.accountId, owner.accountId));
    expect(rows).toHaveLength(1);
  });
});

describe("launching tools from the dashboard", () => {
  test("creates the same job and charges the same credits as the API", async () => {
    const member = await joinAs(await ownerActor(), "member");
    const res = await launchTool(db, member, "audits", { url: "https://example.com/" });
    expect(res).toMatchObject({ ok: true, creditsCharged: 50, balance: 50 });
    if (!res.ok) throw new Error("unreachable");
    const [job] = await db.select().from(jobs).where(eq(jobs.id, res.jobId));
    expect(job).toMatchObject({
      tool: "audits",
      status: "pending",
      creditsCharged: 50,
      accountId: member.accountId,
    });
    const ledger = await db.select().from(creditLedger).where(eq(creditLedger.jobId, res.jobId));
    expect(ledger).toEqual([expect.objectContaining({ type: "spend", amount: -50 })]);
    const series = await getSpendSeries(db, member.accountId, 7);
    expect(series).toHaveLength(7);
    expect(series.at(-1)?.spent).toBe(50);
  });

  test("validates with the tool's schema and refuses an unaffordable launch without charging", async () => {
    const owner = await ownerActor();
    const invalid = await launchTool(db, owner, "audits", { url: "ftp://example.com/" });
    expect(invalid).toMatchObject({ ok: false, issues: [expect.objectContaining({ field: "url" })] });
    const poor = await launchTool(db, owner, "ai-citation-check", {
      prompt: "best tools",
      domain: "example.com",
    });
    expect(poor).toMatchObject({ ok: false, required: 400, available: 100 });
    expect((await getCreditAccount(db, owner.accountId)).balance).toBe(100);
    expect(await launchTool(db, owner, "nope", {})).toMatchObject({ ok: false });
  });

  test("the launchers' catalog covers every tool at the tools' own cost", () => {
    const samples: Record<string, Record<string, unknown>> = {
      "ai-citation-check": { engines: ["ChatGPT", "Claude"] },
      "keyword-metrics": { keywords: ["cold brew", "Cold Brew", "espresso"] },
      "domain-authority": { domains: ["a.com", "b.com", "c.com"] },
    };
    // Priced per item: the launcher shows the price of the list being typed.
    const perItem: Record<string, number> = { "keyword-metrics": 2, "domain-authority": 3 };
    expect(TOOL_CATALOG.map((t) => t.name).sort()).toEqual(Object.keys(TOOLS).sort());
    for (const info of TOOL_CATALOG) {
      const tool = TOOLS[info.name];
      const raw = samples[info.name] ?? {};
      const expected = perItem[info.name] ?? tool.cost(info.name === "ai-citation-check" ? raw : {});
      expect(info.cost(raw), info.name).toBe(expected);
    }
    const aicc = TOOL_CATALOG.find((t) => t.name === "ai-citation-check")!;
    expect(aicc.cost({})).toBe(
      TOOLS["ai-citation-check"].cost({ engines: ["ChatGPT", "Perplexity", "Claude", "Gemini"] }),
    );
  });
});

describe("bot visits by purpose", () => {
  test("one row per day of the window, one series per purpose, from the daily rollup", async () => {
    const owner = await ownerActor();
    const domain = await addDomainAs(db, owner, "bots.example.com");
    const now = new Date("2026-11-22T12:00:00Z");
    await db.insert(trackingDailyBots).values([
      {
        domainId: domain.id,
        day: "2026-11-22",
        botName: "GPTBot",
        botPurpose: "training",
        isAiBot: true,
        visits: 3,
      },
      {
        domainId: domain.id,
        day: "2026-11-22",
        botName: "CCBot",
        botPurpose: "training",
        isAiBot: true,
        visits: 2,
      },
      {
        domainId: domain.id,
        day: "2026-11-20",
        botName: "Googlebot",
        botPurpose: "search",
        isAiBot: false,
        visits: 9,
      },
      // Outside a 7-day window.
      {
        domainId: domain.id,
        day: "2026-11-01",
        botName: "Googlebot",
        botPurpose: "search",
        isAiBot: false,
        visits: 50,
      },
    ]);
    const series = await getBotPurposeSeries(db, domain.id, 7, now);
    expect(series.purposes).toEqual(["search", "training"]);
    expect(series.days).toHaveLength(7);
    expect(series.days[0]).toEqual({ day: "2026-11-16", search: 0, training: 0 });
    expect(series.days.at(-3)).toEqual({ day: "2026-11-20", search: 9, training: 0 });
    expect(series.days.at(-1)).toEqual({ day: "2026-11-22", search: 0, training: 5 });
  });
});
