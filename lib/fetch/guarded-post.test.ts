import { afterAll, beforeAll, expect, test } from "vitest";
import { type FixtureServer, startFixtureServer } from "@/test/fixture-server";
import { FetchError } from "./errors";
import { createGuardedFetch } from "./guarded-fetch";

// POST (a provider's query API at a customer-chosen address): the body is sent, a redirect is never followed,
// and the address policy holds as for GET.
let site: FixtureServer;
beforeAll(async () => {
  site = await startFixtureServer({
    routes: {
      "/api/v2/query": async (req, res) => {
        const chunks: Buffer[] = [];
        for await (const c of req) chunks.push(c as Buffer);
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify({ method: req.method, body: Buffer.concat(chunks).toString("utf8") }));
      },
      "/moved": (_req, res) => {
        res.writeHead(307, { location: "/api/v2/query" });
        res.end();
      },
    },
  });
});
afterAll(() => site?.close());

test("sends the body with the method", async () => {
  const fetcher = createGuardedFetch({ allowPrivateTargets: "loopback" });
  const res = await fetcher(`${site.url}/api/v2/query`, { method: "POST", body: '{"site_id":"a.com"}' });
  expect(JSON.parse(res.text())).toEqual({ method: "POST", body: '{"site_id":"a.com"}' });
});

test("a redirect answer is returned as it is, not followed with the body", async () => {
  const fetcher = createGuardedFetch({ allowPrivateTargets: "loopback" });
  const res = await fetcher(`${site.url}/moved`, { method: "POST", body: "{}" });
  expect(res.status).toBe(307);
  expect(res.redirects).toEqual([]);
});

test("a private address is refused for POST as for GET", async () => {
  const fetcher = createGuardedFetch({ allowPrivateTargets: false });
  await expect(fetcher(`${site.url}/api/v2/query`, { method: "POST", body: "{}" })).rejects.toBeInstanceOf(
    FetchError,
  );
});
