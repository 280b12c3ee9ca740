import type { Metadata } from "next";
import { BuyPackButton } from "@/components/dashboard/buy-pack-button";
import { Card, PageHeader } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { canManageKeys } from "@/lib/accounts/accounts";
import { requireActor } from "@/lib/auth/session";
import { CREDIT_PACKS, findPack, formatMoney, PACK_CURRENCY } from "@/lib/billing/packs";
import { listPurchases } from "@/lib/billing/purchases";
import { getCreditAccount, SIGNUP_BONUS } from "@/lib/credits/credits";
import { formatDateTime, formatNumber } from "@/lib/dashboard/format";
import { stripeConfigured } from "@/lib/providers/stripe/client";

export const metadata: Metadata = { title: "Billing" };

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
  const [credits, purchases] = await Promise.all([
    getCreditAccount(db, actor.accountId),
    listPurchases(db, actor.accountId),
  ]);
  const sells = stripeConfigured();
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
        <>
          {mayBuy ? null : (
            <p className="mt-2 text-sm text-slate-700">
              Only an owner or admin of {actor.accountName} can buy credits.
            </p>
          )}
          <ul className="mt-3 grid gap-4 sm:grid-cols-3">
            {CREDIT_PACKS.map((p) => (
              <li
                key={p.id}
                className="flex flex-col rounded-lg border border-slate-200 bg-white p-4 shadow-sm"
              >
                <h3 className="text-base font-semibold text-slate-900">{p.name}</h3>
                <p className="mt-1 text-2xl font-semibold text-slate-900">
                  {formatNumber(p.credits)} credits
                </p>
                <p className="mt-1 text-sm text-slate-700">
                  {formatMoney(p.price, PACK_CURRENCY)} ·{" "}
                  {formatMoney(Math.round((p.price * 1000) / p.credits), PACK_CURRENCY)} per 1,000 credits
                </p>
                <BuyPackButton
                  packId={p.id}
                  label={`Buy ${p.name}: ${formatNumber(p.credits)} credits for ${formatMoney(p.price, PACK_CURRENCY)}`}
                  disabled={!mayBuy}
                />
              </li>
            ))}
          </ul>
          <p className="mt-3 text-sm text-slate-600">
            Payment by card on Stripe&rsquo;s secure checkout page. Credits do not expire.
          </p>
        </>
      ) : (
        <Card className="mt-3">
          <div data-testid="billing-unconfigured" className="space-y-2 text-sm text-slate-800">
            <p>
              Card payments are not set up on this server, so credits are granted by its operator. Ask them to
              run:
            </p>
            <pre className="whitespace-pre-wrap break-all rounded-md bg-slate-900 p-3 text-slate-50">
              <code>npm run admin -- grant --account &lt;your email&gt; --amount 1000 --type purchase</code>
            </pre>
            <p>
              Operators enable payments by setting <code>STRIPE_SECRET_KEY</code> and{" "}
              <code>STRIPE_WEBHOOK_SECRET</code> (see the README&rsquo;s Billing section).
            </p>
          </div>
        </Card>
      )}

      <h2 className="mt-8 text-lg font-semibold text-slate-900">Receipts</h2>
      <Card className="mt-3">
        {purchases.length === 0 ? (
          <EmptyState>No purchases yet.</EmptyState>
        ) : (
          // A list, not a table: four facts per receipt stay readable at any width without sideways scrolling.
          <ul className="divide-y divide-slate-100" data-testid="receipts">
            {purchases.map((r) => (
              <li
                key={r.id}
                className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1 py-3 text-sm"
              >
                <span className="font-medium text-slate-900">
                  {findPack(r.packId)?.name ?? r.packId} · {formatNumber(r.credits)} credits
                </span>
                <span className="font-mono text-slate-900">{formatMoney(r.amountTotal, r.currency)}</span>
                <span className="w-full text-slate-600">
                  {formatDateTime(r.createdAt)} ·{" "}
                  <code className="break-all text-xs">{r.paymentIntentId ?? r.checkoutSessionId}</code>
                </span>
              </li>
            ))}
          </ul>
        )}
      </Card>
    </>
  );
}
