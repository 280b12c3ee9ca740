import type { DbOrTx } from "@/lib/db/client";
import { isToolName } from "./catalog";
import type { Availability, Env } from "./types";

/**
 * A tool's server-side availability check, `lib/tools/<name>/availability.ts` exporting
 * `checkAvailability(db, input, env)`: for a condition a client-safe definition cannot see (whether a web
 * graph snapshot is imported). Most tools have none.
 */
export type ServerAvailabilityCheck = (db: DbOrTx, input: unknown, env: Env) => Promise<Availability>;

const checks = new Map<string, ServerAvailabilityCheck | null>();

export async function loadServerAvailability(tool: string): Promise<ServerAvailabilityCheck | undefined> {
  if (!isToolName(tool)) return undefined;
  if (!checks.has(tool)) {
    try {
      const mod = (await import(`./${tool}/availability.ts`)) as {
        checkAvailability?: ServerAvailabilityCheck;
      };
      checks.set(tool, mod.checkAvailability ?? null);
    } catch (err) {
      if (!isModuleNotFound(err)) throw err;
      checks.set(tool, null);
    }
  }
  return checks.get(tool) ?? undefined;
}

function isModuleNotFound(err: unknown): boolean {
  const code = (err as { code?: string })?.code;
  const message = err instanceof Error ? err.message : "";
  return (
    code === "ERR_MODULE_NOT_FOUND" ||
    code === "MODULE_NOT_FOUND" ||
    /Cannot find module|Failed to load url|Failed to resolve import|Unknown variable dynamic import/i.test(
      message,
    )
  );
}
