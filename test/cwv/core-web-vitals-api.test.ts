// POST /api/v1/core-web-vitals through the route handler and the job runner, with a real Chromium on a fixture
// page. One browser run only: the engine's own behaviours are covered in lib/cwv/cwv.test.ts.
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { afterAll, describe, expect } from "vitest";
import { ResultView } from "@/components/results/result-view";
import { findLedgerMismatches } from "@/lib/credits/credits";
import type { DbHandle } from "@/lib/db/client";
import { JobRunner, type RunnerOptions, recoverInterruptedJobs } from "@/lib/jobs/runner";
import { apiTest } from "@/test/support/fixtures";
import { balanceOf, type TestAccount } from "../accounts";
import type { TestApi } from "../api-server";
import { type CwvFixtures, FIXTURE_PAGES, INTERACTION_BLOCK_MS, startCwvFixtures } from "../cwv-fixtures";
import { jobRow, ledgerFor } from "../jobs-helpers";

const RUN_TIMEOUT = 180_000;
const CHROME_PATH = process.env.CHROME_PATH ?? "/usr/bin/chromium";
const opts: RunnerOptions = { concurrency: 1, leaseSeconds: 10, queueTimeoutSeconds: 600, pollMs: 50 };

const test = apiTest.withAccount({ credits: 1000 });
let handle: DbHandle;
let api: TestApi;
let acct: TestAccount;
let site: CwvFixtures;

test.beforeAll(async ({ handle: _handle, api: _api, acct: _acct }) => {
  handle = _handle;
  api = _api;
  acct = _acct;
  site = await startCwvFixtures();
});
afterAll(async () => {
  await site?.close();
});

async function post(body: unknown) {
  const res = await fetch(`${api.url}/api/v1/core-web-vitals`, {
    method: "POST",
    headers: { ...acct.headers, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return { res, body: await res.json() };
}

async function apiJob(id: string) {
  const res = await fetch(`${api.url}/api/v1/jobs/${id}`, { headers: acct.headers });
  return (await res.json()).data;
}

/** One runner pass with the server environment `env`, waiting for the job it claims to end. */
async function runJobs(env: Record<string, string>) {
  const runner = new JobRunner(handle.db, opts, undefined, { CHROME_PATH, CRUX_API_KEY: "", ...env });
  await runner.pass();
  await runner.drain();
}

describe("POST /api/v1/core-web-vitals", () => {
  test(
    "202, then the job runs Lighthouse on the page and completes with the measured result",
    async () => {
      const before = await balanceOf(handle.db, acct.accountId);
      const url = `${site.url}${FIXTURE_PAGES.slowInteraction}`;
      const created = await post({ url, strategy: "DESKTOP" });
      expect(created.res.status).toBe(202);
      expect(created.body.data).toMatchObject({ status: "pending" });
      const jobId: string = created.body.data.jobId;
      expect(created.res.headers.get("location")).toBe(`/api/v1/jobs/${jobId}`);
      expect((await jobRow(handle.db, jobId))!.input).toEqual({ url, strategy: "desktop" });
      expect(await balanceOf(handle.db, acct.accountId)).toBe(before - 25);

      // The fixture is on 127.0.0.1: this server lets the browser reach loopback, nothing else private.
      await runJobs({ ALLOW_PRIVATE_TARGETS: "loopback" });
      const job = await apiJob(jobId);
      expect(job.error).toBeUndefined();
      expect(job.status).toBe("completed");
      const result = job.result;
      expect(result).toMatchObject({ url, finalUrl: url, strategy: "desktop", field: null });
      expect(result.performanceScore).toBeGreaterThanOrEqual(0);
      expect(result.performanceScore).toBeLessThanOrEqual(100);
      expect(result.lcp).toMatchObject({ source: "lab" });
      expect(result.cls).toMatchObject({ source: "lab" });
      // The click handler blocks 400 ms and the frame after it 200 ms more: poor, measured by clicking it.
      expect(result.inp).toMatchObject({ rating: "poor", source: "lab-interactions" });
      expect(result.inp.value).toBeGreaterThanOrEqual(INTERACTION_BLOCK_MS);
      expect(result.interactions.made).toContainEqual({ kind: "button", label: "Add to cart" });
      // Customers read it: what is missing in words, never the setting.
      expect(result.fieldReason).toContain("not offered on this service yet");
      expect(result.fieldReason).not.toContain("CRUX_API_KEY");
      expect(result.blockedRequests.map((b: { target: string }) => b.target)).toEqual(
        expect.arrayContaining([
          expect.stringContaining("169.254.169.254"),
          expect.stringContaining("10.0.0.1"),
        ]),
      );
      expect(result.screenshot).toMatch(/^data:image\/(jpeg|webp|png);base64,/);
      expect(result.lighthouseVersion).toMatch(/^13\./);
      expect(job.creditsRefunded).toBe(false);
      expect(await balanceOf(handle.db, acct.accountId)).toBe(before - 25);

      // The dashboard renders the same result: three gauges, the screenshot, the blocked addresses.
      const html = renderToStaticMarkup(createElement(ResultView, { tool: "core-web-vitals", result }));
      expect(html.match(/<meter /g)).toHaveLength(3);
      expect(html).toContain("lab (scripted clicks and typing)");
      expect(html).toContain("Add to cart");
      expect(html).toContain(`src="${result.screenshot}"`);
      expect(html).toContain("169.254.169.254");
      expect(html).toContain("No field data");
    },
    RUN_TIMEOUT,
  );

  test(
    "a page on a private address fails with TARGET_FORBIDDEN under the default policy, refunded exactly once",
    async () => {
      const before = await balanceOf(handle.db, acct.accountId);
      const created = await post({ url: `${site.url}${FIXTURE_PAGES.clean}`, strategy: "Mobile" });
      expect(created.res.status).toBe(202);
      const jobId: string = created.body.data.jobId;
      expect((await jobRow(handle.db, jobId))!.input).toMatchObject({ strategy: "mobile" });

      const requestsBefore = site.requests.length;
      await runJobs({});
      const job = await apiJob(jobId);
      expect(job.status).toBe("failed");
      expect(job.error.code).toBe("TARGET_FORBIDDEN");
      expect(job.error.message).toContain("loopback");
      expect(job.creditsRefunded).toBe(true);
      // Refused before a browser started: the fixture never saw a request.
      expect(site.requests.length).toBe(requestsBefore);

      // Another pass and a recovery sweep find nothing to refund again.
      await runJobs({});
      await recoverInterruptedJobs(handle.db);
      const ledger = await ledgerFor(handle.db, jobId);
      expect(ledger.map((l) => [l.type, Math.abs(l.amount)])).toEqual([
        ["spend", 25],
        ["refund", 25],
      ]);
      expect(await balanceOf(handle.db, acct.accountId)).toBe(before);
      expect(await findLedgerMismatches(handle.db)).toEqual([]);
    },
    RUN_TIMEOUT,
  );
});
