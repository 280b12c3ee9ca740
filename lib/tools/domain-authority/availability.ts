import type { DbOrTx } from "@/lib/db/client";
import { backlinksAvailability } from "@/lib/webgraph";
import type { Availability, Env } from "../types";

export function checkAvailability(db: DbOrTx, _input: unknown, env: Env): Promise<Availability> {
  return backlinksAvailability(db, env);
}
