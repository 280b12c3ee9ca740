// The test files' shared set-ups, as Vitest fixtures. A fixture is made the first time a test or a
// `<test>.beforeAll` hook names it and closed after the file's last test: file-scoped fixtures are one per test
// file (and per test object: a file uses one of `dbTest`, `apiTest`, `toolTest` or an extension of them).
//
//   const test = apiTest.withAccount({ credits: 1000 });
//   test("…", async ({ api, acct, db }) => { … });
//
// Plain `beforeAll` hooks (environment stubs) run before the fixtures they precede; `test.beforeAll(({ db }) => …)`
// reaches the file's fixtures.
import { test as base, expect } from "vitest";
import type { Db, DbHandle } from "@/lib/db/client";
import { ToolError } from "@/lib/errors";
import { createGuardedFetch } from "@/lib/fetch";
import type { ToolContext } from "@/lib/tools/types";
import { createTestAccount, type TestAccount } from "../accounts";
import { startTestApi, type TestApi } from "../api-server";
import { createTestDb } from "../db";
import { type FixtureHandler, type FixtureServer, startFixtureServer } from "../fixture-server";
import { startSiteFixture } from "../fixtures/site/server";

type AccountOptions = NonNullable<Parameters<typeof createTestAccount>[1]>;

/** fetch bound to the app's address and an account's credentials. */
export interface ApiClient {
  /** A request to `path` (e.g. /api/v1/credits) with the account's key and secret. */
  fetch(path: string, init?: RequestInit): Promise<Response>;
  /** A JSON POST with the account's key and secret. */
  post(path: string, body: unknown, headers?: Record<string, string>): Promise<Response>;
}

function apiClient(baseUrl: string, acct: TestAccount): ApiClient {
  return {
    fetch: (path, init = {}) =>
      fetch(`${baseUrl}${path}`, {
        ...init,
        headers: { ...acct.headers, ...(init.headers as Record<string, string> | undefined) },
      }),
    post: (path, body, headers = {}) =>
      fetch(`${baseUrl}${path}`, {
        method: "POST",
        headers: { ...acct.headers, "content-type": "application/json", ...headers },
        body: JSON.stringify(body),
      }),
  };
}

/** A test database: its `url` is set on Postgres (a database of its own on the server). */
export type TestDbHandle = DbHandle & { url?: string };

/** Makes another account on the file's database. */
export type NewAccount = (opts?: AccountOptions) => Promise<TestAccount>;
/** A client for another account. */
export type ClientFor = (other: TestAccount) => ApiClient;

/** A file's own database: a clone of the migrated template (see test/db.ts), closed after the file. */
export const dbTest = base
  // biome-ignore lint/correctness/noEmptyPattern: Vitest reads a fixture's dependencies from this pattern
  .extend("handle", { scope: "file" }, async ({}, { onCleanup }): Promise<TestDbHandle> => {
    const handle = await createTestDb();
    onCleanup(() => handle.close());
    return handle;
  })
  .extend("db", { scope: "file" }, async ({ handle }): Promise<Db> => handle.db);

const apiFixtures = dbTest
  // What the file's first account gets (a file overrides it with `withAccount`).
  .extend("accountOptions", { scope: "file" }, {} as AccountOptions)
  // The app's route handlers over real HTTP on 127.0.0.1 (port 0), serving the file's database. Made for every
  // test (auto), as the database handle it sets is the one the app's modules read.
  .extend("api", { scope: "file", auto: true }, async ({ handle }, { onCleanup }): Promise<TestApi> => {
    const api = await startTestApi(handle);
    onCleanup(() => api.close());
    return api;
  })
  // The file's first account: a key pair and its credits (100 unless `withAccount` says otherwise), made when
  // a test or hook first names it.
  .extend(
    "acct",
    { scope: "file" },
    async ({ db, accountOptions }): Promise<TestAccount> => createTestAccount(db, accountOptions),
  )
  .extend("client", { scope: "file" }, async ({ api, acct }): Promise<ApiClient> => apiClient(api.url, acct))
  /** Another account on the file's database. */
  .extend(
    "account",
    { scope: "file" },
    async ({ db }): Promise<NewAccount> =>
      (opts) =>
        createTestAccount(db, opts),
  )
  /** A client for another account. */
  .extend(
    "clientFor",
    { scope: "file" },
    async ({ api }): Promise<ClientFor> =>
      (other) =>
        apiClient(api.url, other),
  );

/**
 * A file's database, the app over HTTP on it and a first account with a key pair (`acct`, `client`).
 * `apiTest.withAccount({ credits, domains, rateLimitPerMinute })` gives the first account other settings.
 */
export const apiTest = Object.assign(apiFixtures, {
  withAccount: (opts: AccountOptions) => apiFixtures.extend("accountOptions", { scope: "file" }, opts),
});

/** The context a tool runner gets in tests: no environment, a live signal, fetch allowed to reach loopback. */
export function toolContext(overrides: Partial<ToolContext> = {}): ToolContext {
  return {
    env: {},
    jobId: "job-test",
    accountId: "account-test",
    signal: new AbortController().signal,
    fetch: createGuardedFetch({ allowPrivateTargets: true }),
    ...overrides,
  };
}

/** The ToolError a run ends with (the test fails if it ends otherwise). */
export async function toolFailure(run: Promise<unknown>): Promise<ToolError> {
  const err = await run.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ToolError);
  return err as ToolError;
}

/**
 * What tool-runner tests share: `ctx` (a ToolContext, see toolContext), `site` (the planted site of
 * test/fixtures/site, one per file) and `serve(routes)` (a local website for one test, closed after it).
 */
export const toolTest = base
  .extend("ctx", { scope: "file" }, async (): Promise<ToolContext> => toolContext())
  // biome-ignore lint/correctness/noEmptyPattern: Vitest reads a fixture's dependencies from this pattern
  .extend("site", { scope: "file" }, async ({}, { onCleanup }): Promise<FixtureServer> => {
    const site = await startSiteFixture();
    onCleanup(() => site.close());
    return site;
  })
  // biome-ignore lint/correctness/noEmptyPattern: Vitest reads a fixture's dependencies from this pattern
  .extend("serve", async ({}, { onCleanup }) => {
    const servers: FixtureServer[] = [];
    onCleanup(async () => {
      await Promise.all(servers.map((s) => s.close()));
    });
    return async (routes: Record<string, FixtureHandler>): Promise<FixtureServer> => {
      const server = await startFixtureServer({ routes });
      servers.push(server);
      return server;
    };
  });
