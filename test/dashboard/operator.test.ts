import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect } from "vitest";
import { grantPendingSignupBonus } from "@/lib/accounts/accounts";
import { isOperator, setOperator } from "@/lib/accounts/operators";
import { listIntegrations } from "@/lib/capabilities";
import { grantCredits } from "@/lib/credits/credits";
import { listBillingHistory, operatorContactEmail } from "@/lib/dashboard/billing";
import { getActor } from "@/lib/dashboard/members";
import { signUp } from "@/lib/dashboard/signup";
import type { DbHandle } from "@/lib/db/client";
import { dbTest } from "@/test/support/fixtures";
import { isPostgres } from "../db";

const test = dbTest;
let handle: DbHandle;

test.beforeAll(async ({ handle: _handle }) => {
  handle = _handle;
});

describe("operators", () => {
  test("flagged and unflagged by address, any letter case; an unknown address changes nothing", async () => {
    const { user } = await signUp(handle.db, {
      email: `Op-${process.pid}@Example.com`,
      password: "correct horse battery",
    });
    expect(await isOperator(handle.db, user.id)).toBe(false);
    expect(await setOperator(handle.db, `op-${process.pid}@example.com`, true)).toMatchObject({
      operator: true,
    });
    expect(await isOperator(handle.db, user.id)).toBe(true);
    expect(await setOperator(handle.db, "nobody@example.com", true)).toBeNull();
    await setOperator(handle.db, user.email, false);
    expect(await isOperator(handle.db, user.id)).toBe(false);
  });

  test("the admin CLI's operator and unoperator commands", { timeout: 60_000 }, () => {
    if (isPostgres()) return; // the CLI on its own database: the PGlite folder form is enough here
    const dir = mkdtempSync(path.join(os.tmpdir(), "admin-operator-"));
    const env = { ...process.env, PGLITE_DATA_DIR: path.join(dir, "db"), DATABASE_URL: "" };
    const admin = (...args: string[]) => {
      const run = spawnSync(process.execPath, ["--import", "tsx", "scripts/admin.ts", ...args], {
        env,
        encoding: "utf8",
      });
      return { code: run.status, out: run.stdout ? JSON.parse(run.stdout) : null };
    };
    try {
      expect(admin("create-account", "--email", "boss@example.com").code).toBe(0);
      expect(admin("operator", "--email", "Boss@Example.com")).toMatchObject({
        code: 0,
        out: { email: "boss@example.com", operator: true },
      });
      expect(admin("unoperator", "--email", "boss@example.com").out).toMatchObject({ operator: false });
      expect(admin("operator", "--email", "ghost@example.com").code).toBe(2);
      expect(admin("operator").code).toBe(2);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("the integrations list names every setting, configured or not", async () => {
    const none = await listIntegrations(handle.db, {});
    const ids = none.map((i) => i.id);
    expect(ids).toEqual(
      expect.arrayContaining([
        "engine-chatgpt",
        "dataforseo",
        "chromium",
        "stripe",
        "smtp",
        "google",
        "data-key",
      ]),
    );
    expect(none.every((i) => !i.configured)).toBe(true);
    const settings = none.flatMap((i) => i.settings);
    for (const name of [
      "OPENAI_API_KEY",
      "DATAFORSEO_LOGIN",
      "STRIPE_SECRET_KEY",
      "DATA_ENCRYPTION_KEY",
      "GOOGLE_CLIENT_SECRET",
      "SMTP_URL",
      "OPERATOR_CONTACT_EMAIL",
    ]) {
      expect(settings).toContain(name);
    }
    const some = await listIntegrations(handle.db, {
      OPENAI_API_KEY: "k",
      STRIPE_SECRET_KEY: "sk",
      STRIPE_WEBHOOK_SECRET: "wh",
      CHROME_AVAILABLE: "true",
    });
    const configured = some.filter((i) => i.configured).map((i) => i.id);
    expect(configured.sort()).toEqual(["chromium", "engine-chatgpt", "stripe"]);
  });
});

describe("billing without Stripe", () => {
  test("operator grants appear in the history as grants, the sign-up bonus as such", async () => {
    const { user } = await signUp(handle.db, {
      email: `bill-${process.pid}@example.com`,
      password: "correct horse battery",
    });
    await handle.db.transaction((tx) => grantPendingSignupBonus(tx, user.id));
    const actor = (await getActor(handle.db, user.id))!;
    await grantCredits(handle.db, actor.accountId, 1000, {
      type: "purchase",
      description: "Operator purchase: 1000 credits",
    });
    const history = await listBillingHistory(handle.db, actor.accountId);
    expect(history).toMatchObject([
      { kind: "grant", type: "purchase", credits: 1000, description: "Operator purchase: 1000 credits" },
      { kind: "grant", type: "bonus", credits: 100 },
    ]);
  });

  test("the contact address comes from the environment, only when it is an address", () => {
    expect(operatorContactEmail({ OPERATOR_CONTACT_EMAIL: " sales@example.com " })).toBe("sales@example.com");
    expect(operatorContactEmail({ OPERATOR_CONTACT_EMAIL: "not an address" })).toBeNull();
    expect(operatorContactEmail({})).toBeNull();
  });
});
