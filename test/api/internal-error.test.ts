import { expect } from "vitest";
import { type DbHandle, setDbHandle } from "@/lib/db/client";
import type { TestAccount } from "@/test/accounts";
import type { TestApi } from "@/test/api-server";
import { apiTest } from "@/test/support/fixtures";

const test = apiTest;
let handle: DbHandle;
let api: TestApi;
let acct: TestAccount;
test.beforeAll(({ handle: _handle, api: _api, acct: _acct }) => {
  handle = _handle;
  api = _api;
  acct = _acct;
});

test("a server-side failure is INTERNAL_ERROR with a request id and no internals", async () => {
  // The database goes away under the running server.
  const failing: DbHandle = {
    driver: handle.driver,
    close: async () => {},
    db: new Proxy(handle.db, {
      get() {
        throw new Error(
          "connect ECONNREFUSED 10.1.2.3:5432 password=hunter2 at Pool.connect (/srv/app/node_modules/pg)",
        );
      },
    }),
  };
  setDbHandle(failing);
  try {
    const res = await fetch(`${api.url}/api/v1/credits`, { headers: acct.headers });
    const text = await res.text();
    expect(res.status).toBe(500);
    const body = JSON.parse(text);
    expect(body.success).toBe(false);
    expect(body.error.code).toBe("INTERNAL_ERROR");
    expect(body.requestId).toBe(res.headers.get("x-request-id"));
    for (const leak of ["ECONNREFUSED", "hunter2", "node_modules", "10.1.2.3", "Pool"])
      expect(text).not.toContain(leak);
  } finally {
    setDbHandle(handle);
  }
});
