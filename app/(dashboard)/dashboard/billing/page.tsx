import type { Metadata } from "next";
import { BuyPackButton } from "@/components/dashboard/buy-pack-button";
import { Card, PageHeader } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { canManageKeys } from "@/lib/accounts/accounts";
import { requireActor } from "@/lib/auth/session";
import { CREDIT_PACKS, findPack, formatMoney, PACK_CURRENCY } from "@/lib/billing/packs";
import { getCreditAccount, SIGNUP_BONUS } from "@/lib/credits/credits";
import { listBillingHistory, operatorContactEmail } from "@/lib/dashboard/billing";
import { formatDateTime, formatNumber } from "@/lib/dashboard/format";
import { readStripeConfig } from "@/lib/providers/stripe/config";

export const metadata: Metadata = { title: "Billing" };

const GRANT_KIND = {
  bonus: "Free credits on sign-up",
  grant: "Granted by the operator",
  purchase: "Purchase recorded by the operator",
  adjustment: "Adjustment by the operator",
} as const;

const NOTICES: Record<string, { tone: "ok" | "info"; text: string }> = {
  verified: {
    tone: "ok",
    text: `Email address verified. Your ${SIGNUP_BONUS} free credits are in your balance.`,
  },
  success: {
    tone: "ok",
    text: "Payment received. The credits are added as soon as Stripe confirms the payment, usually within seconds; reload to see them.",
  },
  cancelled: { tone: "info", text: "Checkout cancelled. Nothing was charged." },
};

export default async function BillingPage({
  searchParams,
}: {
  searchParams: Promise<{ checkout?: string; verified?: string }>;
}) {
  const { db, actor } = await requireActor();
  const params = await searchParams;
  const [credits, history] = await Promise.all([
    getCreditAccount(db, actor.accountId),
    listBillingHistory(db, actor.accountId),
  ]);
  const sells = readStripeConfig() !== null;
  const contact = operatorContactEmail();
  const mayBuy = canManageKeys(actor.role);
  const notice =
    params.verified === "1" ? NOTICES.verified : params.checkout ? NOTICES[params.checkout] : undefined;
  return (
    <>
      <PageHeader
        title="Billing"
        description="Credits pay for tool runs. Failed jobs are refunded automatically."
      />
      {notice ? (
        <p
          role="status"
          className={`mb-4 rounded-md p-3 text-sm ${notice.tone === "ok" ? "bg-emerald-50 text-emerald-900" : "bg-slate-100 text-slate-800"}`}
        >
          {notice.text}
        </p>
      ) : null}
      <Card>
        <p className="text-sm text-slate-600">Credit balance</p>
        <p className="mt-1 text-3xl font-semibold text-slate-900" data-testid="billing-balance">
          {formatNumber(credits.balance)}
        </p>
      </Card>

      <h2 className="mt-8 text-lg font-semibold text-slate-900">Buy credits</h2>
      {sells ? (
        mayBuy ? null : (
          <p className="mt-2 text-sm text-slate-700">
            Only an owner or admin of {actor.accountName} can buy credits.
          </p>
        )
      ) : (
        <div
          data-testid="billing-unconfigured"
          className="mt-2 rounded-md bg-slate-100 p-3 text-sm text-slate-800"
        >
          <p>
            Buying credits online is not open yet. To buy a pack now,{" "}
            {contact ? (
              <>
                write to the operator at{" "}
                <a
                  className="link"
                  href={`mailto:${contact}?subject=${encodeURIComponent(`Credits for ${actor.accountName}`)}`}
                >
                  {contact}
                </a>
              </>
            ) : (
              "contact the operator of this service"
            )}
            : they add the credits to this account, and they appear in the history below.
          </p>
        </div>
      )}
      <ul className="mt-3 grid gap-4 sm:grid-cols-3" data-testid="packs">
        {CREDIT_PACKS.map((p) => (
          <li key={p.id} className="flex flex-col rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
            <h3 className="text-base font-semibold text-slate-900">{p.name}</h3>
            <p className="mt-1 text-2xl font-semibold text-slate-900">{formatNumber(p.credits)} credits</p>
            <p className="mt-1 text-sm text-slate-700">
              {formatMoney(p.price, PACK_CURRENCY)} ·{" "}
              {formatMoney(Math.round((p.price * 1000) / p.credits), PACK_CURRENCY)} per 1,000 credits
            </p>
            {sells ? (
              <BuyPackButton
                packId={p.id}
                label={`Buy ${p.name}: ${formatNumber(p.credits)} credits for ${formatMoney(p.price, PACK_CURRENCY)}`}
                disabled={!mayBuy}
              />
            ) : null}
          </li>
        ))}
      </ul>
      <p className="mt-3 text-sm text-slate-600">
        {sells ? "Payment by card on Stripe’s secure checkout page. " : ""}Credits do not expire.
      </p>

      <h2 className="mt-8 text-lg font-semibold text-slate-900">Receipts and credits added</h2>
      <Card className="mt-3">
        {history.length === 0 ? (
          <EmptyState>No purchases or credits added yet.</EmptyState>
        ) : (
          // A list, not a table: four facts per line stay readable at any width without sideways scrolling.
          <ul className="divide-y divide-slate-100" data-testid="receipts">
            {history.map((r) =>
              r.kind === "purchase" ? (
                <li
                  key={`p-${r.id}`}
                  className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1 py-3 text-sm"
                >
                  <span className="font-medium text-slate-900">
                    {findPack(r.packId)?.name ?? r.packId} · {formatNumber(r.credits)} credits
                  </span>
                  <span className="font-mono text-slate-900">{formatMoney(r.amountTotal, r.currency)}</span>
                  <span className="w-full text-slate-600">
                    Card purchase · {formatDateTime(r.at)} ·{" "}
                    <code className="break-all text-xs">{r.reference}</code>
                  </span>
                </li>
              ) : (
                <li
                  key={`g-${r.id}`}
                  className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1 py-3 text-sm"
                  data-testid="grant-row"
                >
                  <span className="font-medium text-slate-900">+{formatNumber(r.credits)} credits</span>
                  <span className="text-slate-700">{GRANT_KIND[r.type]}</span>
                  <span className="w-full text-slate-600">
                    {formatDateTime(r.at)} · {r.description}
                  </span>
                </li>
              ),
            )}
          </ul>
        )}
      </Card>
    </>
  );
}
