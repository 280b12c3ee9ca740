import type { Metadata } from "next";
import { LazyBotChart } from "@/components/charts/lazy";
import { DomainFilter } from "@/components/dashboard/domain-filter";
import { NoDomains } from "@/components/dashboard/no-domains";
import { Card, PageHeader } from "@/components/ui/card";
import { type Column, DataTable } from "@/components/ui/data-table";
import { EmptyState } from "@/components/ui/empty-state";
import { listDomains } from "@/lib/accounts/domains";
import { requireActor } from "@/lib/auth/session";
import { getBotPeriod, type PeriodBot } from "@/lib/dashboard/bot-period";
import { getBotPurposeSeries } from "@/lib/dashboard/bot-series";
import { formatNumber } from "@/lib/dashboard/format";
import { purposeLabel } from "@/lib/dashboard/labels";
import { intParam } from "@/lib/dashboard/params";
import { getBotStats } from "@/lib/tracking/reports/stats";

export const metadata: Metadata = { title: "Bots" };

const VISITS: Column<{ count: number }> = {
  header: "Visits",
  cell: (row) => formatNumber(row.count),
  align: "right",
};

/** Whether the bot's visits came from its operator's published addresses. */
function VerificationMark({ bot }: { bot: PeriodBot }) {
  if (bot.spoofed > 0) {
    return (
      <span className="font-medium text-red-700">
        ⚠ {formatNumber(bot.spoofed)} of {formatNumber(bot.visits)} spoofed
      </span>
    );
  }
  if (bot.verified === 0) return <span className="text-slate-600">not verified</span>;
  const how = verifiedHow(bot);
  if (bot.unverified === 0) return <span className="font-medium text-emerald-800">✓ verified{how}</span>;
  return (
    <span className="text-slate-700">
      ✓ {formatNumber(bot.verified)} of {formatNumber(bot.visits)} verified{how}
    </span>
  );
}

/** " by signature", " by IP range and reverse DNS": the methods that verified the bot's visits. */
function verifiedHow(bot: PeriodBot): string {
  const methods = [
    bot.verifiedBy.signature > 0 ? "signature" : null,
    bot.verifiedBy.ip > 0 ? "IP range" : null,
    bot.verifiedBy.rdns > 0 ? "reverse DNS" : null,
  ].filter((m) => m !== null);
  return methods.length === 0 ? "" : ` by ${methods.join(" and ")}`;
}

export default async function BotsPage({
  searchParams,
}: {
  searchParams: Promise<{ domain?: string; days?: string }>;
}) {
  const { db, actor } = await requireActor();
  const sp = await searchParams;
  const domains = await listDomains(db, actor.accountId);
  if (domains.length === 0) return <NoDomains title="Bots" />;
  const row = domains.find((d) => d.hostname === sp.domain) ?? domains[0]!;
  const days = intParam(sp.days, 1, 90, 30);
  const [stats, period, series] = await Promise.all([
    getBotStats(db, actor.accountId, row.hostname),
    getBotPeriod(db, row.id, days),
    getBotPurposeSeries(db, row.id, days),
  ]);
  const figures = [
    [`Visits, last ${days} days`, period.totalVisits, "period-visits"],
    [`AI-bot visits, last ${days} days`, period.aiBotVisits, "period-ai-visits"],
    [`Bots seen, last ${days} days`, period.uniqueBots, "period-bots"],
    ["Visits since tracking began", stats.totalVisits, "total-visits"],
  ] as const;
  return (
    <>
      <PageHeader
        title="Bots"
        description="Search-engine and AI crawler visits your site reported to us. Verified: a signature of the bot's operator, an address it publishes, or its reverse DNS proves the visit."
      />
      <DomainFilter
        domains={domains.map((d) => d.hostname)}
        domain={row.hostname}
        days={days}
        dayOptions={[7, 30, 90]}
      />
      <div className="grid grid-cols-2 gap-4 lg:grid-cols-4">
        {figures.map(([label, value, id]) => (
          <Card key={id}>
            <p className="text-sm text-slate-600">{label}</p>
            <p className="mt-1 text-2xl font-semibold text-slate-900" data-testid={id}>
              {formatNumber(value)}
            </p>
          </Card>
        ))}
      </div>
      <Card title={`Visits by bot purpose, last ${days} days`} className="mt-4">
        {series.purposes.length === 0 ? (
          <EmptyState>
            No bot visits in this period. Send visits with the tracking snippet on the Domains page.
          </EmptyState>
        ) : (
          <LazyBotChart data={series.days} series={series.purposes} />
        )}
      </Card>
      <div className="mt-4 grid gap-4 lg:grid-cols-2">
        <Card title={`Top bots, last ${days} days`}>
          <DataTable
            label="Top bots"
            columns={[
              {
                header: "Bot",
                cell: (b) => (
                  <>
                    {b.name}
                    {b.isAIBot ? (
                      <span className="ml-2 rounded-full bg-indigo-50 px-2 py-0.5 text-xs font-semibold text-indigo-800 ring-1 ring-inset ring-indigo-600/30">
                        AI
                      </span>
                    ) : null}
                  </>
                ),
                className: "whitespace-nowrap",
              },
              { header: "Purpose", cell: (b) => purposeLabel(b.purpose), className: "whitespace-nowrap" },
              { header: "Source", cell: (b) => <VerificationMark bot={b} />, className: "whitespace-nowrap" },
              { header: "Visits", cell: (b) => formatNumber(b.visits), align: "right" },
              {
                header: "Verified / unverified / spoofed",
                cell: (b) => (
                  <span title="Verified: proven by the operator's signature, published addresses or reverse DNS. Spoofed: claims the bot but fails the check.">
                    {formatNumber(b.verified)} / {formatNumber(b.unverified)} /{" "}
                    <span className={b.spoofed > 0 ? "font-semibold text-red-700" : undefined}>
                      {formatNumber(b.spoofed)}
                    </span>
                  </span>
                ),
                align: "right",
              },
            ]}
            rows={period.topBots}
            rowKey={(b) => b.name}
            empty="None in this period."
          />
        </Card>
        <Card title="Top pages (all time)">
          <DataTable
            label="Top pages"
            columns={[
              { header: "Path", cell: (p) => p.url, className: "break-all font-mono text-xs" },
              VISITS,
            ]}
            rows={stats.topPages}
            rowKey={(p) => p.url}
            empty="None yet."
          />
        </Card>
      </div>
    </>
  );
}
