import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createTestDb, isPostgres } from "../db";

// The CLI runs as operators run it: a separate process on its own database
// (a fresh PGlite folder, or a fresh cloned Postgres database).
let env: Record<string, string>;
let cleanup: () => Promise<void>;

beforeAll(async () => {
  if (isPostgres()) {
    const handle = (await createTestDb()) as Awaited<ReturnType<typeof createTestDb>> & { url: string };
    env = { DATABASE_URL: handle.url };
    cleanup = () => handle.close();
  } else {
    const dir = mkdtempSync(path.join(os.tmpdir(), "admin-cli-"));
    env = { PGLITE_DATA_DIR: path.join(dir, "db"), DATABASE_URL: "" };
    cleanup = async () => rmSync(dir, { recursive: true, force: true });
  }
});
afterAll(() => cleanup?.());

function admin(...args: string[]) {
  const run = spawnSync(process.execPath, ["--import", "tsx", "scripts/admin.ts", ...args], {
    env: { ...process.env, ...env },
    encoding: "utf8",
  });
  let json: Record<string, unknown> | null = null;
  try {
    json = JSON.parse(run.stdout);
  } catch {}
  return { code: run.status, json, stderr: run.stderr };
}

describe("npm run admin", () => {
  test("create-account, add-domain, grant, rotate-key and show", () => {
    const created = admin(
      "create-account",
      "--email",
      "Owner@Example.com",
      "--grant",
      "25",
      "--domain",
      "Shop.Example.com",
    );
    expect(created.code).toBe(0);
    expect(created.json).toMatchObject({
      ownerEmail: "Owner@Example.com",
      balance: 125,
      domain: "shop.example.com",
    });
    expect(created.json!.apiKey).toMatch(/^sk_live_/);
    expect(created.json!.apiSecret).toMatch(/^sks_/);
    const id = created.json!.accountId as string;

    expect(
      admin("add-domain", "--account", id, "--domain", "https://blog.example.com/path").json,
    ).toMatchObject({
      domain: "blog.example.com",
    });
    expect(admin("grant", "--account", "owner@example.com", "--amount", "10").json).toMatchObject({
      balance: 135,
    });
    const rotated = admin("rotate-key", "--account", id, "--rate-limit", "120");
    expect(rotated.code).toBe(0);
    expect(rotated.json!.apiKey).not.toBe(created.json!.apiKey);

    const shown = admin("show", "--account", id);
    expect(shown.json).toMatchObject({
      balance: 135,
      domains: [
        { hostname: "blog.example.com", verified: false },
        { hostname: "shop.example.com", verified: false },
      ],
      apiKey: { keyId: rotated.json!.apiKey, rateLimitPerMinute: 120 },
    });
    const types = (shown.json!.recentTransactions as { type: string; amount: number }[]).map((t) => [
      t.type,
      t.amount,
    ]);
    expect(types).toEqual([
      ["grant", 10],
      ["grant", 25],
      ["grant", 100],
    ]);
    expect(JSON.stringify(shown.json)).not.toContain(rotated.json!.apiSecret as string);
  }, 60_000);

  test("create-token, list-tokens, revoke-token: shown once, listed without it", () => {
    const created = admin("create-account", "--email", "tokens@example.com");
    const id = created.json!.accountId as string;
    const made = admin("create-token", "--account", id, "--name", "old plugin");
    expect(made.code).toBe(0);
    expect(made.json!.token).toMatch(/^lt_[A-Za-z0-9]{16}_[A-Za-z0-9_-]{43}$/);
    const listed = admin("list-tokens", "--account", "tokens@example.com");
    expect(listed.json!.tokens).toEqual([
      expect.objectContaining({ id: made.json!.id, name: "old plugin", revokedAt: null }),
    ]);
    expect(JSON.stringify(listed.json)).not.toContain(made.json!.token as string);
    const revoked = admin("revoke-token", "--account", id, "--token", made.json!.id as string);
    expect(revoked.code).toBe(0);
    expect(revoked.json!.revokedAt).toBeTruthy();
    expect(admin("revoke-token", "--account", id, "--token", "nope").code).toBe(2);
    expect(admin("create-token", "--account", id).stderr).toMatch(/--name is required/);
  }, 60_000);

  test("list-keys, create-key, roll-key, set-key-limit, revoke-key", () => {
    const created = admin("create-account", "--email", "keys@example.com");
    const id = created.json!.accountId as string;
    const ci = admin("create-key", "--account", id, "--name", "CI");
    expect(ci.code).toBe(0);
    expect(ci.json).toMatchObject({ name: "CI", state: "active", rateLimitPerMinute: 60 });
    expect(ci.json!.secret).toMatch(/^sks_/);
    expect(admin("create-key", "--account", id, "--name", "CI").stderr).toMatch(/already active/);
    const limited = admin(
      "set-key-limit",
      "--account",
      id,
      "--key",
      ci.json!.keyId as string,
      "--rate-limit",
      "300",
    );
    expect(limited.json).toMatchObject({ rateLimitPerMinute: 300 });
    const rolled = admin("roll-key", "--account", id, "--key", ci.json!.keyId as string, "--window", "24h");
    expect(rolled.code).toBe(0);
    expect(rolled.json).toMatchObject({
      key: { name: "CI", state: "active", rateLimitPerMinute: 300 },
      replaced: { keyId: ci.json!.keyId, state: "rolling" },
    });
    const listed = admin("list-keys", "--account", "keys@example.com");
    expect(
      (listed.json!.keys as { name: string; state: string }[]).map((k) => [k.name, k.state]).sort(),
    ).toEqual([
      ["CI", "active"],
      ["CI", "rolling"],
      ["Default", "active"],
    ]);
    expect(JSON.stringify(listed.json)).not.toContain(ci.json!.secret as string);
    const revoked = admin("revoke-key", "--account", id, "--key", ci.json!.id as string);
    expect(revoked.json).toMatchObject({ state: "revoked" });
    expect(admin("roll-key", "--account", id, "--key", "sk_live_unknown", "--window", "1h").stderr).toMatch(
      /no key pair/,
    );
    const newPair = rolled.json!.key as { id: string };
    expect(admin("roll-key", "--account", id, "--key", newPair.id, "--window", "2d").stderr).toMatch(
      /--window must be one of/,
    );
  }, 90_000);

  const bad: [string, string[], RegExp][] = [
    ["no command", [], /command is required/],
    ["unknown command", ["frobnicate"], /unknown command/],
    ["missing email", ["create-account"], /--email is required/],
    ["bad email", ["create-account", "--email", "nope"], /not an email/],
    ["bad amount", ["grant", "--account", "owner@example.com", "--amount", "0"], /positive whole number/],
    ["unknown account", ["show", "--account", "nobody@example.com"], /no account/],
    ["bad domain", ["add-domain", "--account", "owner@example.com", "--domain", "not a domain"], /hostname/],
    ["unknown option", ["show", "--acount", "x"], /Unknown option/],
    ["show-job without a job id", ["show-job", "--job", "nope"], /a job id/],
    ["show-job of an unknown job", ["show-job", "--job", "00000000-0000-4000-8000-000000000000"], /no job/],
  ];
  for (const [name, args, message] of bad) {
    test(`refuses: ${name}`, () => {
      const r = admin(...args);
      expect(r.code).not.toBe(0);
      expect(r.stderr).toMatch(message);
    }, 30_000);
  }
});
