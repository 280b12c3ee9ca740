import { afterAll, describe, expect } from "vitest";
import { setVerificationDeps } from "@/lib/accounts/domain-verification";
import type { DbHandle } from "@/lib/db/client";
import { visits } from "@/lib/db/schema";
import { createGuardedFetch } from "@/lib/fetch";
import { apiTest } from "@/test/support/fixtures";
import { createTestAccount, type TestAccount } from "../accounts";
import type { TestApi } from "../api-server";
import { type FixtureServer, startFixtureServer } from "../fixture-server";
import { callApi, minutesAgo, UA } from "./helpers";

const test = apiTest;
let handle: DbHandle;
let api: TestApi;
let fixture: FixtureServer;
let alice: TestAccount;
let bob: TestAccount;
/** What the fixture website serves at /.well-known/findable-verify.txt, per host. */
const files = new Map<string, string>();
/** The TXT records the stub resolver knows. */
const txt = new Map<string, string[][]>();

type DomainView = {
  domain: string;
  verified: boolean;
  verificationMethod: string | null;
  verification: { dnsTxt: { name: string; value: string }; file: { url: string; content: string } };
  checks?: { method: string; ok: boolean; detail: string }[];
};

test.beforeAll(async ({ handle: _handle, api: _api }) => {
  handle = _handle;
  api = _api;
  fixture = await startFixtureServer({
    routes: {
      "/.well-known/findable-verify.txt": (req, res) => {
        const host = new URL(req.url ?? "/", "http://x").searchParams.get("host") ?? "";
        const body = files.get(host);
        res.writeHead(body ? 200 : 404, { "content-type": "text/plain" }).end(body ?? "not found");
      },
    },
  });
  setVerificationDeps({
    resolveTxt: async (name) => {
      const records = txt.get(name);
      if (!records) throw Object.assign(new Error("queryTxt ENOTFOUND"), { code: "ENOTFOUND" });
      return records;
    },
    fetch: createGuardedFetch({ allowPrivateTargets: "loopback" }),
    fileUrl: (host) => `${fixture.url}/.well-known/findable-verify.txt?host=${host}`,
  });
  alice = await createTestAccount(handle.db);
  bob = await createTestAccount(handle.db, { domains: ["bob.example"] });
});
afterAll(async () => {
  setVerificationDeps(undefined);
  await fixture?.close();
});

const addDomain = (who: TestAccount, json: unknown) =>
  callApi<DomainView>(api, "/api/v1/domains", { method: "POST", headers: who.headers, json });

describe("POST /domains", () => {
  test("registers a domain: 201 with the verification instructions; again: 200, same token", async () => {
    const first = await addDomain(alice, { domain: "Alice-Site.example" });
    expect(first.status).toBe(201);
    expect(first.data).toMatchObject({
      domain: "alice-site.example",
      verified: false,
      verificationMethod: null,
    });
    const token = first.data.verification.dnsTxt.value;
    expect(token).toMatch(/^aeo-verify-[0-9a-f]{32}$/);
    expect(first.data.verification).toEqual({
      dnsTxt: { name: "_findable-verify.alice-site.example", value: token },
      file: { url: "https://alice-site.example/.well-known/findable-verify.txt", content: token },
    });
    const again = await addDomain(alice, { domain: "https://alice-site.example/some/page" });
    expect(again.status).toBe(200);
    expect(again.data.verification.dnsTxt.value).toBe(token);
  });

  const bad: { name: string; body: unknown }[] = [
    { name: "no domain", body: {} },
    { name: "empty", body: { domain: "" } },
    { name: "a bare word", body: { domain: "localhost" } },
    { name: "an IP address", body: { domain: "192.168.1.1" } },
    { name: "underscores", body: { domain: "bad_name.example" } },
    { name: "too long", body: { domain: `${"a".repeat(250)}.example` } },
    { name: "a number", body: { domain: 42 } },
    { name: "an unknown field", body: { domain: "ok.example", verified: true } },
  ];
  for (const c of bad) {
    test(`400: ${c.name}`, async () => {
      const { status, body } = await addDomain(alice, c.body);
      expect(status).toBe(400);
      expect(body.error?.code).toBe("VALIDATION_ERROR");
    });
  }
});

describe("GET and DELETE /domains", () => {
  test("lists only the account's own domains", async () => {
    const { data } = await callApi<{ domains: DomainView[] }>(api, "/api/v1/domains", {
      headers: bob.headers,
    });
    expect(data.domains.map((d) => d.domain)).toEqual(["bob.example"]);
  });

  const lookups: { name: string; path: string; status: number; code?: string }[] = [
    { name: "own domain", path: "/api/v1/domains/bob.example", status: 200 },
    { name: "unknown domain", path: "/api/v1/domains/nobody.example", status: 404, code: "NOT_FOUND" },
    { name: "malformed", path: "/api/v1/domains/not_valid", status: 400, code: "VALIDATION_ERROR" },
  ];
  for (const c of lookups) {
    test(`GET ${c.name}`, async () => {
      const { status, body } = await callApi(api, c.path, { headers: bob.headers });
      expect(status).toBe(c.status);
      if (c.code) expect(body.error?.code).toBe(c.code);
    });
  }

  test("another account's domain is 404 to GET and DELETE", async () => {
    expect((await callApi(api, "/api/v1/domains/bob.example", { headers: alice.headers })).status).toBe(404);
    const del = await callApi(api, "/api/v1/domains/bob.example", {
      method: "DELETE",
      headers: alice.headers,
    });
    expect(del.status).toBe(404);
  });

  test("DELETE removes the domain and its tracking data; data endpoints then answer 403", async () => {
    const carol = await createTestAccount(handle.db, { domains: ["carol.example"] });
    const ingest = await callApi(api, "/api/v1/tracking/events", {
      method: "POST",
      headers: carol.headers,
      json: {
        events: [{ domain: "carol.example", path: "/", userAgent: UA.gptbot, timestamp: minutesAgo(1) }],
      },
    });
    expect(ingest.data).toMatchObject({ accepted: 1 });
    const before = (await handle.db.select().from(visits)).length;
    const del = await callApi(api, "/api/v1/domains/carol.example", {
      method: "DELETE",
      headers: carol.headers,
    });
    expect(del.status).toBe(200);
    expect(del.data).toEqual({ domain: "carol.example", deleted: true });
    expect((await handle.db.select().from(visits)).length).toBe(before - 1);
    const stats = await callApi(api, "/api/v1/tracking/stats?domain=carol.example", {
      headers: carol.headers,
    });
    expect(stats.status).toBe(403);
    expect(stats.body.error?.code).toBe("FORBIDDEN_SCOPE");
    const again = await callApi(api, "/api/v1/domains/carol.example", {
      method: "DELETE",
      headers: carol.headers,
    });
    expect(again.status).toBe(404);
  });
});

describe("POST /domains/{domain}/verify", () => {
  test("an unverified domain still receives events (flagged by verified: false)", async () => {
    const dave = await createTestAccount(handle.db, { domains: ["dave.example"] });
    const { data } = await callApi(api, "/api/v1/tracking/events", {
      method: "POST",
      headers: dave.headers,
      json: {
        events: [{ domain: "dave.example", path: "/", userAgent: UA.googlebot, timestamp: minutesAgo(1) }],
      },
    });
    expect(data).toMatchObject({ accepted: 1 });
    const view = await callApi<DomainView>(api, "/api/v1/domains/dave.example", { headers: dave.headers });
    expect(view.data.verified).toBe(false);
  });

  test("no proof: verified stays false, each check says why", async () => {
    await addDomain(alice, { domain: "noproof.example" });
    const { status, data } = await callApi<DomainView>(api, "/api/v1/domains/noproof.example/verify", {
      method: "POST",
      headers: alice.headers,
    });
    expect(status).toBe(200);
    expect(data.verified).toBe(false);
    expect(data.checks?.map((c) => [c.method, c.ok])).toEqual([
      ["dns_txt", false],
      ["file", false],
    ]);
    expect(data.checks?.[1]?.detail).toContain("404");
  });

  test("a DNS TXT record at _findable-verify.<domain> verifies", async () => {
    const { data: added } = await addDomain(alice, { domain: "dns.example" });
    txt.set("_findable-verify.dns.example", [[added.verification.dnsTxt.value]]);
    const { data } = await callApi<DomainView>(api, "/api/v1/domains/dns.example/verify", {
      method: "POST",
      headers: alice.headers,
    });
    expect(data).toMatchObject({ verified: true, verificationMethod: "dns_txt" });
  });

  test("an apex TXT record findable-verify=<token> verifies (split TXT strings joined)", async () => {
    const { data: added } = await addDomain(alice, { domain: "apex.example" });
    const token = added.verification.dnsTxt.value;
    txt.set("apex.example", [["v=spf1 -all"], ["findable-verify=", token]]);
    const { data } = await callApi<DomainView>(api, "/api/v1/domains/apex.example/verify", {
      method: "POST",
      headers: alice.headers,
    });
    expect(data).toMatchObject({ verified: true, verificationMethod: "dns_txt" });
  });

  test("the /.well-known/ file verifies, fetched through the guarded fetcher", async () => {
    const { data: added } = await addDomain(alice, { domain: "file.example" });
    files.set("file.example", `${added.verification.file.content}\n`);
    const { data } = await callApi<DomainView>(api, "/api/v1/domains/file.example/verify", {
      method: "POST",
      headers: alice.headers,
    });
    expect(data).toMatchObject({ verified: true, verificationMethod: "file" });
    const list = await callApi<{ domains: DomainView[] }>(api, "/api/v1/domains", { headers: alice.headers });
    expect(list.data.domains.find((d) => d.domain === "file.example")?.verified).toBe(true);
  });

  test("a file with the wrong token does not verify", async () => {
    await addDomain(alice, { domain: "wrong.example" });
    files.set("wrong.example", "aeo-verify-00000000000000000000000000000000");
    const { data } = await callApi<DomainView>(api, "/api/v1/domains/wrong.example/verify", {
      method: "POST",
      headers: alice.headers,
    });
    expect(data.verified).toBe(false);
  });

  test("the default fetcher policy refuses a loopback target", async () => {
    const { data: added } = await addDomain(alice, { domain: "guarded.example" });
    files.set("guarded.example", added.verification.file.content);
    setVerificationDeps({
      resolveTxt: async () => [],
      fetch: createGuardedFetch({ allowPrivateTargets: false }),
      fileUrl: (host) => `${fixture.url}/.well-known/findable-verify.txt?host=${host}`,
    });
    try {
      const { data } = await callApi<DomainView>(api, "/api/v1/domains/guarded.example/verify", {
        method: "POST",
        headers: alice.headers,
      });
      expect(data.verified).toBe(false);
      expect(data.checks?.[1]?.detail).toContain("TARGET_FORBIDDEN");
    } finally {
      setVerificationDeps({
        resolveTxt: async (name) => txt.get(name) ?? [],
        fetch: createGuardedFetch({ allowPrivateTargets: "loopback" }),
        fileUrl: (host) => `${fixture.url}/.well-known/findable-verify.txt?host=${host}`,
      });
    }
  });

  test("verifying another account's domain is 404", async () => {
    const { status } = await callApi(api, "/api/v1/domains/bob.example/verify", {
      method: "POST",
      headers: alice.headers,
    });
    expect(status).toBe(404);
  });
});
