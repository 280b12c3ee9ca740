import { afterAll, beforeAll } from "vitest";
import type { Db, DbHandle } from "@/lib/db/client";
import { createTestAccount, type TestAccount } from "../accounts";
import { startTestApi, type TestApi } from "../api-server";
import { createTestDb } from "../db";

type AccountOptions = Parameters<typeof createTestAccount>[1];

/** fetch bound to the app's address and an account's credentials. */
export interface ApiClient {
  /** A request to `path` (e.g. /api/v1/credits) with the account's key and secret. */
  fetch(path: string, init?: RequestInit): Promise<Response>;
  /** A JSON POST with the account's key and secret. */
  post(path: string, body: unknown, headers?: Record<string, string>): Promise<Response>;
}

export interface TestApiSetup {
  /** The migrated clone of the template database. */
  handle: DbHandle;
  db: Db;
  /** The app's route handlers over real HTTP on 127.0.0.1 (port 0). */
  api: TestApi;
  /** The first account: a key, a secret and its credits. */
  acct: TestAccount;
  client: ApiClient;
  /** Another account on the same database. */
  account(opts?: AccountOptions): Promise<TestAccount>;
  /** A client for another account. */
  clientFor(acct: TestAccount): ApiClient;
  close(): Promise<void>;
}

export function apiClient(baseUrl: string, acct: TestAccount): ApiClient {
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

/** A database clone, the app over HTTP and an account with a key pair and `credits` (default 100). */
export async function startTestApiSetup(opts: AccountOptions = {}): Promise<TestApiSetup> {
  const handle = await createTestDb();
  const api = await startTestApi(handle);
  const acct = await createTestAccount(handle.db, opts);
  return {
    handle,
    db: handle.db,
    api,
    acct,
    client: apiClient(api.url, acct),
    account: (more) => createTestAccount(handle.db, more),
    clientFor: (other) => apiClient(api.url, other),
    async close() {
      await api.close();
      await handle.close();
    },
  };
}

/**
 * Stands for an object made in `beforeAll`: property reads, `in`, spreads and method calls reach the
 * real object once it exists (so a test file can destructure its set-up at the top).
 */
function late<T extends object>(get: () => T | undefined, what: string): T {
  const real = () => {
    const value = get();
    if (!value)
      throw new Error(`${what} exists once the file's beforeAll has run; use it in a test or hook.`);
    return value;
  };
  return new Proxy({} as T, {
    get: (_t, key) => {
      const target = real();
      const value = Reflect.get(target, key);
      return typeof value === "function" ? value.bind(target) : value;
    },
    has: (_t, key) => key in real(),
    ownKeys: () => Reflect.ownKeys(real()),
    getOwnPropertyDescriptor: (_t, key) => {
      const found = Reflect.getOwnPropertyDescriptor(real(), key);
      return found ? { ...found, configurable: true } : found;
    },
  });
}

/**
 * The shared set-up of an API test file: `startTestApiSetup` before the file's tests (after the `beforeAll`
 * hooks registered before this call, such as stubbed environment variables), closed after them.
 *
 *   const { handle, api, acct } = setUpTestApi({ credits: 1000 });
 *
 * The fields stand for the objects made in `beforeAll` (see `late`), so tests use them as they are.
 */
export function setUpTestApi(opts: AccountOptions = {}): TestApiSetup {
  let setup: TestApiSetup | undefined;
  beforeAll(async () => {
    setup = await startTestApiSetup(opts);
  });
  afterAll(async () => {
    await setup?.close();
  });
  const field = <K extends "handle" | "db" | "api" | "acct" | "client">(key: K) =>
    late(() => setup?.[key] as TestApiSetup[K] | undefined, key) as TestApiSetup[K];
  return {
    handle: field("handle"),
    db: field("db"),
    api: field("api"),
    acct: field("acct"),
    client: field("client"),
    account: (more) => setup!.account(more),
    clientFor: (other) => setup!.clientFor(other),
    close: async () => setup?.close(),
  };
}
