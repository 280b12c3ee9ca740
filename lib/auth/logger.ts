// next-auth's default logger prints a stack trace for every refused sign-in and the full cause of other
// failures (a database error's cause holds the statement and its parameters). This one logs a refused
// sign-in as one line and any other failure without its parameters.
import { redactDbError } from "@/lib/db/errors";

/** Errors next-auth throws for a refused password sign-in (next-auth's own and our throttle subclass). */
const REFUSED_SIGN_IN = new Set(["CredentialsSignin"]);

function typeOf(error: Error): string {
  const type = (error as { type?: unknown }).type;
  return typeof type === "string" ? type : error.name;
}

export const authLogger = {
  error(error: Error): void {
    const type = typeOf(error);
    if (REFUSED_SIGN_IN.has(type)) {
      const code = (error as { code?: unknown }).code;
      console.warn(
        `[auth] sign-in refused${typeof code === "string" && code !== "credentials" ? ` (${code})` : ""}`,
      );
      return;
    }
    const cause = error.cause as { err?: unknown } | undefined;
    const inner = cause && typeof cause === "object" && "err" in cause ? cause.err : cause;
    const redacted = inner === undefined ? undefined : redactDbError(inner);
    // A database failure keeps only its message and code; other causes keep their message.
    const detail =
      redacted === undefined
        ? ""
        : redacted instanceof Error
          ? ` — ${typeOf(redacted)}: ${redacted.message}`
          : ` — ${JSON.stringify(redacted)}`;
    console.error(`[auth][error] ${type}: ${error.message.split("\n")[0]}${detail}`);
  },
  warn(code: string): void {
    console.warn(`[auth][warn] ${code}`);
  },
};
