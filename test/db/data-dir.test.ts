import { chmodSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, expect, test } from "vitest";
import { claimDataDir, secureDataDir } from "@/lib/db/data-dir";

const root = mkdtempSync(path.join(os.tmpdir(), "data-dir-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

test("a data folder left open to others (as PGlite leaves it under umask 0) is made owner-only", () => {
  const dir = path.join(root, "loose");
  mkdirSync(path.join(dir, "base", "1"), { recursive: true });
  writeFileSync(path.join(dir, "base", "1", "1259"), "x");
  writeFileSync(path.join(dir, "PG_VERSION"), "18");
  for (const f of [dir, path.join(dir, "base"), path.join(dir, "base", "1")]) chmodSync(f, 0o777);
  for (const f of ["base/1/1259", "PG_VERSION"]) chmodSync(path.join(dir, f), 0o666);

  secureDataDir(dir);
  expect(statSync(dir).mode & 0o777).toBe(0o700);
  expect(statSync(path.join(dir, "base", "1")).mode & 0o777).toBe(0o700);
  expect(statSync(path.join(dir, "base", "1", "1259")).mode & 0o777).toBe(0o600);
  expect(statSync(path.join(dir, "PG_VERSION")).mode & 0o777).toBe(0o600);
});

test("a new folder is created 0700 and its lock file 0600", async () => {
  const dir = path.join(root, "fresh", "db");
  const claim = await claimDataDir(dir, { role: "exclusive", command: "test" });
  expect(claim.kind).toBe("owner");
  expect(statSync(dir).mode & 0o777).toBe(0o700);
  expect(statSync(path.join(dir, "owner.json")).mode & 0o777).toBe(0o600);
  if (claim.kind === "owner") claim.lock.release();
});

test("within one process a second direct open of a held folder is refused rather than splitting it", async () => {
  const dir = path.join(root, "twice");
  const first = await claimDataDir(dir, { role: "exclusive", command: "first" });
  await expect(claimDataDir(dir, { role: "exclusive", command: "second", waitMs: 300 })).rejects.toThrow(
    `in use by process ${process.pid} (first)`,
  );
  if (first.kind === "owner") first.lock.release();
  const again = await claimDataDir(dir, { role: "exclusive", command: "again" });
  expect(again.kind).toBe("owner");
  if (again.kind === "owner") again.lock.release();
});
