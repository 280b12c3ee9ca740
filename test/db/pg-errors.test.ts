import { sql } from "drizzle-orm";
import { expect, test } from "vitest";
import {
  isCheckViolation,
  isDataException,
  isDeadlock,
  isForeignKeyViolation,
  isUniqueViolation,
  pgConstraint,
  pgErrorCode,
} from "@/lib/db/errors";
import { dbTest } from "@/test/support/fixtures";

// The predicates read the driver's error through Drizzle's wrapper, on whichever driver the tests run.
dbTest("constraint violations are recognised by kind and by constraint name", async ({ handle }) => {
  const fail = (q: ReturnType<typeof sql>) =>
    handle.db
      .execute(q)
      .then(() => null)
      .catch((e: unknown) => e);
  await handle.db.execute(sql`create temp table pe_parent (id int constraint pe_parent_pk primary key)`);
  await handle.db.execute(
    sql`create temp table pe_child (n int constraint pe_child_n_positive check (n > 0), parent int constraint pe_child_parent_fk references pe_parent(id))`,
  );
  await handle.db.execute(sql`insert into pe_parent values (1)`);

  const duplicate = await fail(sql`insert into pe_parent values (1)`);
  expect(pgErrorCode(duplicate)).toBe("23505");
  expect(pgConstraint(duplicate)).toBe("pe_parent_pk");
  expect(isUniqueViolation(duplicate)).toBe(true);
  expect(isUniqueViolation(duplicate, "pe_parent_pk")).toBe(true);
  expect(isUniqueViolation(duplicate, "other_constraint")).toBe(false);
  expect(isForeignKeyViolation(duplicate)).toBe(false);

  const orphan = await fail(sql`insert into pe_child values (1, 2)`);
  expect(isForeignKeyViolation(orphan, "pe_child_parent_fk")).toBe(true);
  expect(isUniqueViolation(orphan)).toBe(false);

  const negative = await fail(sql`insert into pe_child values (-1, 1)`);
  expect(isCheckViolation(negative, "pe_child_n_positive")).toBe(true);

  const divided = await fail(sql`select 1/0`);
  expect(isDataException(divided)).toBe(true);
  expect(isDeadlock(divided)).toBe(false);
});

test("errors that are not database errors match nothing", () => {
  for (const err of [new Error("boom"), null, undefined, "23505", { code: 23505 }]) {
    expect(pgErrorCode(err)).toBeUndefined();
    expect(isUniqueViolation(err)).toBe(false);
  }
  expect(isDeadlock(Object.assign(new Error("wrapped"), { cause: { code: "40P01" } }))).toBe(true);
});
