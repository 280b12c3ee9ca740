import { sql } from "drizzle-orm";
import { expect, test } from "vitest";
import { redactDbError } from "@/lib/db/errors";
import { dbTest } from "@/test/support/fixtures";

// Logs keep what failed, never the statement's parameters or the row values a constraint names.
dbTest("a failed query is logged as its driver message and SQLSTATE only", async ({ handle }) => {
  const secret = "sks_very-secret-value";
  const err = await handle.db
    .execute(sql`select 1/0 as boom where ${secret}::text = ${secret}::text`)
    .then(() => null)
    .catch((e: unknown) => e);
  expect(err).toBeInstanceOf(Error);
  const redacted = redactDbError(err) as { name: string; message: string; code?: string };
  expect(redacted).toEqual({ name: "DatabaseError", message: "division by zero", code: "22012" });
  expect(JSON.stringify(redacted)).not.toContain(secret);
});

test("a drizzle wrapper around a socket error keeps the message and code, not the parameters", () => {
  const cause = Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" });
  const wrapped = Object.assign(new Error("Failed query: select $1\nparams: sks_secret"), {
    query: "select $1",
    params: ["sks_secret"],
    cause,
  });
  expect(redactDbError(wrapped)).toEqual({
    name: "DatabaseError",
    message: "connect ECONNREFUSED 127.0.0.1:5432",
    code: "ECONNREFUSED",
  });
});

test("other errors pass through untouched, stack and all", () => {
  const bug = new TypeError("x is undefined");
  expect(redactDbError(bug)).toBe(bug);
});
