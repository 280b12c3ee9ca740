import type { DbOrTx } from "@/lib/db/client";
import { keywordMetricsAvailability } from "@/lib/keywords";
import type { Availability, Env } from "../types";

export async function checkAvailability(_db: DbOrTx, _input: unknown, env: Env): Promise<Availability> {
  return keywordMetricsAvailability(env);
}
