/**
 * What a log may keep of a database failure: the message and the SQLSTATE or socket code. Drizzle puts
 * the statement and its parameters into its error message, and Postgres errors carry row values in
 * `detail`, so neither is ever printed.
 */
export interface RedactedDbError {
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
