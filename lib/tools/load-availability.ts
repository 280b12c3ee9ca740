import type { DbOrTx } from "@/lib/db/client";
import { TOOL_AVAILABILITY_CHECKS } from "./runners.generated";
import type { Availability, Env } from "./types";

/**
 * A tool's server-side availability check, `lib/tools/<name>/availability.ts` (listed in lib/tools/runners.generated.ts) exporting
 * `checkAvailability(db, input, env)`: for a condition a client-safe definition cannot see (whether a web
 * graph snapshot is imported). Most tools have none.
 */
export type ServerAvailabilityCheck = (db: DbOrTx, input: unknown, env: Env) => Promise<Availability>;

const checks = new Map<string, ServerAvailabilityCheck | null>();

export async function loadServerAvailability(tool: string): Promise<ServerAvailabilityCheck | undefined> {
  if (!Object.hasOwn(TOOL_AVAILABILITY_CHECKS, tool)) return undefined;
  if (!checks.has(tool)) {
    const mod = (await TOOL_AVAILABILITY_CHECKS[tool]!()) as { checkAvailability?: ServerAvailabilityCheck };
    checks.set(tool, mod.checkAvailability ?? null);
  }
  return checks.get(tool) ?? undefined;
}
