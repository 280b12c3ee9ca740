import { creditAccount, RECENT_TRANSACTIONS } from "@/lib/credits/view";
import { defineRoute } from "./contract";

/** GET /credits: balance, total used and the most recent transactions (free). */
export const getCreditsRoute = defineRoute({
  method: "get",
  path: "/credits",
  operationId: "getCredits",
  tag: "Credits",
  summary: "Credit balance and recent transactions",
  description: `The balance, the credits spent in total and the ${RECENT_TRANSACTIONS} most recent ledger transactions (grants, spends, automatic refunds of failed jobs, purchases, adjustments). Free.`,
  success: {
    status: 200,
    description: "The credit account.",
    data: { name: "CreditAccount", schema: creditAccount },
  },
  errors: [],
});
