import { z } from "zod";
import { LEDGER_TYPES } from "@/lib/db/schema";

/** Transactions GET /credits (and the dashboard, and MCP get_credits) list, newest first. */
export const RECENT_TRANSACTIONS = 20;

/** The credit account as clients see it; `CreditAccountView` is inferred from it. */
export const creditAccount = z.object({
  balance: z.number().int(),
  totalUsed: z
    .number()
    .int()
    .describe(
      "Credits spent on work, net of refunds: every charge, less what failed jobs (and failed engines of an AI check) gave back. Purchases and grants do not count.",
    ),
  recentTransactions: z
    .array(
      z.object({
        type: z.enum(LEDGER_TYPES),
        amount: z.number().int().describe("Negative for a spend."),
        description: z.string().describe("Names the operation that caused it."),
        balanceAfter: z.number().int(),
        jobId: z.uuid().nullable(),
        createdAt: z.iso.datetime(),
      }),
    )
    .max(RECENT_TRANSACTIONS)
    .describe(
      `The ${RECENT_TRANSACTIONS} most recent transactions, newest first; refunds of failed jobs included.`,
    ),
});
export type CreditAccountView = z.infer<typeof creditAccount>;
