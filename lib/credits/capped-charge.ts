import type { SQL } from "drizzle-orm";
import { sql } from "drizzle-orm";
import type { Tx } from "@/lib/db/client";
import { rowsOf } from "@/lib/db/rows";
import { AppError } from "@/lib/errors";
import { type Charged, type ChargeSpec, charge, insufficientCreditsError } from "./ledger";

/** Why a run was not charged, with the figures that decided it. */
export interface SkipDetail {
  required: number;
  available: number;
  monthlyCreditCap?: number;
  spentThisMonth?: number;
}
export type SkipReason = "insufficient_credits" | "monthly_cap";

type CappedCharge<Extra> =
  | { charged: Charged & Extra }
  | { charged: null; reason: SkipReason; detail: SkipDetail };

/**
 * A recurring run's charge (a monitor's, a scheduled audit's): taken with its work in one statement only when
 * the balance covers it and the month's spend (`spent`, a query of one number) stays within `cap` (null: no
 * cap). When it is not taken, nothing is written and the answer says why: `insufficient_credits` when the
 * balance is short, `monthly_cap` otherwise, with the balance and the month's spend read after the refusal.
 */
export async function chargeWithinCap<Extra extends Record<string, unknown> = Record<string, never>>(
  tx: Tx,
  spec: Omit<ChargeSpec, "before" | "condition"> & { cap: number | null; spent: SQL },
): Promise<CappedCharge<Extra>> {
  const { cap, spent, ...rest } = spec;
  const charged = await charge<Extra>(tx, {
    ...rest,
    before: sql`spent as (${spent})`,
    condition: sql`(${cap}::int is null or (select * from spent) + ${spec.cost}::int <= ${cap}::int)`,
  });
  if (charged) return { charged };
  const [row] = rowsOf<{ balance: number; spent: number }>(
    await tx.execute(sql`
      select (select credit_balance from accounts where id = ${spec.accountId}) as balance, (${spent}) as spent`),
  );
  const detail: SkipDetail = {
    required: spec.cost,
    available: Number(row?.balance ?? 0),
    ...(cap !== null ? { monthlyCreditCap: cap, spentThisMonth: Number(row?.spent ?? 0) } : {}),
  };
  return {
    charged: null,
    reason: detail.available < spec.cost ? "insufficient_credits" : "monthly_cap",
    detail,
  };
}

/**
 * The refusal of a run asked for now that could not be charged: 402 when the balance is short, 400 naming the
 * cap (`capOf`: "the monitor's") when it would pass the month's cap.
 */
export function refusedRun(
  skip: { reason: SkipReason; detail: SkipDetail },
  capOf: string,
  issues?: { field: string; message: string }[],
): AppError {
  const d = skip.detail;
  if (skip.reason === "insufficient_credits") return insufficientCreditsError(d.required, d.available, "run");
  return new AppError(
    "VALIDATION_ERROR",
    `This run (${d.required} credits) would pass ${capOf} monthly cap of ${d.monthlyCreditCap} credits (${d.spentThisMonth} spent this month). Raise or remove the cap to run it.`,
    { field: "monthlyCreditCap", reason: "monthly_cap", ...d, ...(issues ? { issues } : {}) },
  );
}
