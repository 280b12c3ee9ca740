import { z } from "zod";
import type { Db } from "@/lib/db/client";
import { getCitations } from "@/lib/tracking/citations-query";
import { getBotStats } from "@/lib/tracking/stats";

// Both reads refuse a domain not registered on the account (FORBIDDEN_SCOPE).
// The REST routes read these from query strings; MCP arguments are typed JSON, so numbers are numbers.
export const trackingInputs = {
  botStats: z
    .object({ domain: z.string().min(1).max(253).describe("A domain registered on this account.") })
    .strict(),
  citations: z
    .object({
      domain: z.string().min(1).max(253).describe("A domain registered on this account."),
      days: z.number().int().min(1).max(90).default(30).describe("Look-back window in days."),
      limit: z.number().int().min(1).max(200).default(50).describe("Most recent citations listed."),
    })
    .strict(),
};

export async function readBotStats(db: Db, accountId: string, input: { domain: string }) {
  return getBotStats(db, accountId, input.domain);
}

export async function readCitations(
  db: Db,
  accountId: string,
  input: { domain: string; days: number; limit: number },
) {
  return getCitations(db, accountId, input);
}
