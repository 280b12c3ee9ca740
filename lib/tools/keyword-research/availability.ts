import type { DbOrTx } from "@/lib/db/client";
import { type KeywordResearchInput, keywordResearchAvailability } from "@/lib/keywords";
import type { Availability, Env } from "../types";

export async function checkAvailability(
  _db: DbOrTx,
  input: KeywordResearchInput,
  env: Env,
): Promise<Availability> {
  return keywordResearchAvailability(input, env);
}
