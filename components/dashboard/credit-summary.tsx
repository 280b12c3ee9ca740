"use client";

import Link from "next/link";
import { Card } from "@/components/ui/card";
import { DataTable } from "@/components/ui/data-table";
import { LocalTime } from "@/components/ui/local-time";
import type { CreditAccountView } from "@/lib/credits/credits";
import { formatNumber } from "@/lib/dashboard/format";
import { describeTransaction, shortJobRef } from "@/lib/dashboard/labels";
import { useCredits } from "./use-credits";

/** The balance and total used, from the shared credits query: a refund shows without a reload. */
export function BalanceFigures({ initial }: { initial: CreditAccountView }) {
  const credits = useCredits(initial).data ?? initial;
  return (
    <>
      <Card>
        <p className="text-sm text-slate-600">Credit balance</p>
        <p className="mt-1 text-3xl font-semibold text-slate-900" data-testid="credit-balance">
          {formatNumber(credits.balance)}
        </p>
        <Link href="/dashboard/billing" className="link mt-2 inline-block text-sm">
          Buy credits
        </Link>
      </Card>
      <Card>
        <p className="text-sm text-slate-600">Used in total</p>
        <p className="mt-1 text-3xl font-semibold text-slate-900">{formatNumber(credits.totalUsed)}</p>
      </Card>
    </>
  );
}

type Row = CreditAccountView["recentTransactions"][number];

/** Recent ledger rows in plain words: the tool's title, a short link to its job, local time. */
export function RecentTransactions({ initial }: { initial: CreditAccountView }) {
  const credits = useCredits(initial).data ?? initial;
  return (
    <DataTable<Row>
      label="Recent transactions"
      columns={[
        { header: "When", cell: (t) => <LocalTime value={t.createdAt} />, className: "whitespace-nowrap" },
        {
          header: "Description",
          cell: (t) => {
            const words = describeTransaction(t);
            return (
              <>
                <span className="sr-only">{t.type}: </span>
                {words.text}
                {words.jobId ? (
                  <>
                    {" · "}
                    <Link href={`/dashboard/jobs/${words.jobId}`} className="link font-mono text-xs">
                      <span className="sr-only">job </span>
                      {shortJobRef(words.jobId)}
                    </Link>
                  </>
                ) : null}
                {words.reason ? <span className="text-slate-600"> ({words.reason})</span> : null}
              </>
            );
          },
        },
        {
          header: "Amount",
          cell: (t) => `${t.amount > 0 ? "+" : ""}${t.amount}`,
          align: "right",
          className: (t) => `font-mono ${t.amount < 0 ? "text-red-700" : "text-emerald-800"}`,
        },
      ]}
      rows={credits.recentTransactions.slice(0, 10)}
      // Ledger rows reach the page without ids; the list is replaced, never reordered.
      rowKey={(t, i) => `${t.createdAt}-${i}`}
      empty="No transactions yet."
    />
  );
}
