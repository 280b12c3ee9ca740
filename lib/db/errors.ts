/**
 * What a log may keep of a database failure: the message and the SQLSTATE or socket code. Drizzle puts
 * the statement and its parameters into its error message, and Postgres errors carry row values in
 * `detail`, so neither is ever printed.
 */
interface RedactedDbError {
  name: "DatabaseError";
  message: string;
  code?: string;
}

function isDrizzleQueryError(err: unknown): err is Error & { cause?: unknown; params: unknown[] } {
  return err instanceof Error && err.message.startsWith("Failed query:") && "params" in err;
}

/** Postgres errors (postgres.js `PostgresError`, PGlite `DatabaseError`) and socket errors raised by the drivers. */
function isDriverError(err: unknown): err is Error & { code?: unknown } {
  if (!(err instanceof Error)) return false;
  const name = err.constructor?.name ?? err.name;
  if (name === "PostgresError" || name === "DatabaseError") return true;
  const code = (err as { code?: unknown }).code;
  return (
    typeof code === "string" &&
    /^(CONNECTION_|ECONN|ETIMEDOUT|EPIPE|ENOTFOUND|EAI_AGAIN|CONNECT_TIMEOUT|UNDEFINED_VALUE|[0-9A-Z]{5}$)/.test(
      code,
    )
  );
}

/**
 * A database error reduced to its message and code; anything else is returned unchanged so that
 * programming errors keep their stack trace in the log.
 */
export function redactDbError(err: unknown): unknown {
  let inner = err;
  let wrapped = false;
  while (isDrizzleQueryError(inner)) {
    inner = inner.cause;
    wrapped = true;
  }
  if (isDriverError(inner)) {
    const code = (inner as { code?: unknown }).code;
    return {
      name: "DatabaseError",
      message: inner.message,
      ...(typeof code === "string" ? { code } : {}),
    } satisfies RedactedDbError;
  }
  if (wrapped) {
    // A failed query whose cause is not a driver error: keep only the cause's message.
    const message = inner instanceof Error ? inner.message : "query failed";
    return { name: "DatabaseError", message } satisfies RedactedDbError;
  }
  return err;
}

/** SQLSTATE codes the application reacts to. */
const PG_ERROR = {
  uniqueViolation: "23505",
  foreignKeyViolation: "23503",
  checkViolation: "23514",
  deadlockDetected: "40P01",
} as const;

interface PgErrorFields {
  code?: unknown;
  constraint?: unknown;
  constraint_name?: unknown;
}

/**
 * The driver's error inside `err`: postgres.js and PGlite throw it directly (`code`, and `constraint_name`
 * or `constraint`); Drizzle wraps it as the `cause` of its "Failed query" error.
 */
function driverFields(err: unknown): PgErrorFields | undefined {
  let inner: unknown = err;
  for (let depth = 0; depth < 4 && inner && typeof inner === "object"; depth++) {
    const fields = inner as PgErrorFields & { cause?: unknown };
    if (typeof fields.code === "string") return fields;
    inner = fields.cause;
  }
  return undefined;
}

/** The SQLSTATE (or driver code) of a database error, wrapped or not; undefined for anything else. */
export function pgErrorCode(err: unknown): string | undefined {
  const code = driverFields(err)?.code;
  return typeof code === "string" ? code : undefined;
}

/** The constraint a violation names, when the driver reports it. */
export function pgConstraint(err: unknown): string | undefined {
  const fields = driverFields(err);
  const name = fields?.constraint_name ?? fields?.constraint;
  return typeof name === "string" ? name : undefined;
}

function hasCode(err: unknown, code: string, constraint?: string): boolean {
  if (pgErrorCode(err) !== code) return false;
  return constraint === undefined || pgConstraint(err) === constraint;
}

/** A unique (or primary key) violation, optionally of one named constraint. */
export const isUniqueViolation = (err: unknown, constraint?: string) =>
  hasCode(err, PG_ERROR.uniqueViolation, constraint);
/** A foreign key violation, optionally of one named constraint. */
export const isForeignKeyViolation = (err: unknown, constraint?: string) =>
  hasCode(err, PG_ERROR.foreignKeyViolation, constraint);
/** A check constraint violation, optionally of one named constraint. */
export const isCheckViolation = (err: unknown, constraint?: string) =>
  hasCode(err, PG_ERROR.checkViolation, constraint);
/** A transaction aborted to break a deadlock; running it again may succeed. */
export const isDeadlock = (err: unknown) => hasCode(err, PG_ERROR.deadlockDetected);
/** A data exception (SQLSTATE class 22): a value the database refuses, such as a number out of range. */
export const isDataException = (err: unknown) => pgErrorCode(err)?.startsWith("22") ?? false;
