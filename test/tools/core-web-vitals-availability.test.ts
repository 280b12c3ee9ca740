// Core Web Vitals needs Chromium on the server: without it the tool says so before any charge, and a job whose
// browser cannot start fails with the engine's code.
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import type { DbHandle } from "@/lib/db/client";
import { createGuardedFetch } from "@/lib/fetch";
import { describeToolStatus } from "@/lib/tools/catalog";
import { coreWebVitals } from "@/lib/tools/core-web-vitals/definition";
import { runner } from "@/lib/tools/core-web-vitals/run";
import { readServerEnv } from "@/lib/tools/server-env";
import { ToolError } from "@/lib/tools/types";
import { balanceOf, type TestAccount } from "../accounts";
import type { TestApi } from "../api-server";
import { apiTest } from "../support/fixtures";

let dir: string;
let executable: string;
let plainFile: string;
const missing = "/nonexistent/chromium";

beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), "chrome-path-"));
  executable = path.join(dir, "chromium");
  writeFileSync(executable, "#!/bin/sh\nexit 1\n");
  chmodSync(executable, 0o755);
  plainFile = path.join(dir, "not-executable");
  writeFileSync(plainFile, "");
  chmodSync(plainFile, 0o644);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("the server's Chromium fact", () => {
  const cases: [string, string, string | undefined][] = [
    ["an executable file", "executable", "true"],
    ["a missing path", "missing", undefined],
    ["a file without the execute bit", "plain", undefined],
    ["a directory", "dir", undefined],
  ];
  for (const [name, which, expected] of cases) {
    test(`CHROME_PATH naming ${name} → CHROME_AVAILABLE ${expected ?? "unset"}`, () => {
      const chromePath = { executable, missing, plain: plainFile, dir }[which]!;
      expect(readServerEnv({ CHROME_PATH: chromePath }).CHROME_AVAILABLE).toBe(expected);
    });
  }

  test("a CHROME_AVAILABLE in the environment claims nothing: the server checks for itself", () => {
    expect(
      readServerEnv({ CHROME_PATH: missing, CHROME_AVAILABLE: "true" }).CHROME_AVAILABLE,
    ).toBeUndefined();
  });

  test("the definition refuses without the fact, and the launcher's status names what is missing", () => {
    const input = coreWebVitals.input.parse({ url: "https://example.com/" });
    const refused = coreWebVitals.availability!(input, readServerEnv({ CHROME_PATH: missing }));
    expect(refused).toEqual({ ok: false, reason: expect.stringContaining("Chromium") });
    expect(coreWebVitals.availability!(input, readServerEnv({ CHROME_PATH: executable }))).toEqual({
      ok: true,
    });
    const status = describeToolStatus(coreWebVitals, readServerEnv({ CHROME_PATH: missing }));
    expect(status).toMatchObject({ built: true, requirements: [{ configured: false }] });
    expect(status.requirements[0]!.label).toContain("Chromium");
  });
});

describe("through the API", () => {
  let handle: DbHandle;
  let api: TestApi;
  let acct: TestAccount;
  apiTest.beforeAll(({ handle: _handle, api: _api, acct: _acct }) => {
    handle = _handle;
    api = _api;
    acct = _acct;
  });
  afterAll(() => {
    vi.unstubAllEnvs();
  });

  apiTest("without Chromium on the server: 400 naming it, nothing charged, no job", async () => {
    vi.stubEnv("CHROME_PATH", missing);
    const res = await fetch(`${api.url}/api/v1/core-web-vitals`, {
      method: "POST",
      headers: { ...acct.headers, "content-type": "application/json" },
      body: JSON.stringify({ url: "https://example.com/" }),
    });
    const body = await res.json();
    expect(res.status).toBe(400);
    expect(body.error).toMatchObject({
      code: "VALIDATION_ERROR",
      message: expect.stringContaining("Chromium"),
      details: { reason: "browser_missing" },
    });
    expect(await balanceOf(handle.db, acct.accountId)).toBe(100);
    const jobs = await fetch(`${api.url}/api/v1/jobs?tool=core-web-vitals`, { headers: acct.headers });
    expect((await jobs.json()).data.jobs).toEqual([]);
  });
});

describe("the runner", () => {
  test("a browser that cannot start fails the job with BROWSER_UNAVAILABLE, in the engine's words", async () => {
    const err = await runner
      .run(coreWebVitals.input.parse({ url: "http://127.0.0.1:9/" }), {
        jobId: "job-cwv",
        accountId: "acct-cwv",
        signal: AbortSignal.timeout(60_000),
        fetch: createGuardedFetch({ allowPrivateTargets: "loopback" }),
        env: { CHROME_PATH: plainFile, ALLOW_PRIVATE_TARGETS: "loopback", CRUX_API_KEY: "" },
      })
      .then(
        () => null,
        (e: unknown) => e,
      );
    expect(err).toBeInstanceOf(ToolError);
    expect(err).toMatchObject({ code: "BROWSER_UNAVAILABLE", message: expect.stringContaining(plainFile) });
  }, 60_000);
});
