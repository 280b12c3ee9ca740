import type { Metadata } from "next";
import Link from "next/link";
import { BotsFilterForm } from "@/components/dashboard/bots/bots-filter-form";
import { type BarSeries, DailyBars } from "@/components/dashboard/bots/daily-bars";
import { FilterChip } from "@/components/dashboard/bots/filter-chip";
import { VerificationMark } from "@/components/dashboard/bots/verification-mark";
import { NoDomains } from "@/components/dashboard/no-domains";
import { Card, PageHeader } from "@/components/ui/card";
import { DataTable } from "@/components/ui/data-table";
import { EmptyState } from "@/components/ui/empty-state";
import { listDomains } from "@/lib/accounts/domains";
import { requireActor } from "@/lib/auth/session";
import {
  type Breakdown,
  getBotDetail,
  getBotPages,
  getPageBots,
  getPageCrawlSeries,
  getPeriodTopPages,
} from "@/lib/dashboard/bot-filters";
import { getBotPeriod } from "@/lib/dashboard/bot-period";
import { getBotPurposeSeries } from "@/lib/dashboard/bot-series";
import { formatDateTime, formatNumber } from "@/lib/dashboard/format";
import { purposeLabel } from "@/lib/dashboard/labels";
import { intParam } from "@/lib/dashboard/params";
import { getBotStats } from "@/lib/tracking/reports/stats";

export const metadata: Metadata = { title: "Bots" };

type Param = string | string[] | undefined;
const first = (v: Param) => (Array.isArray(v) ? v[0] : v);

/** A bot name as the catalogue spells them; anything else is no filter (the page ignores it, never fails). */
function botParam(v: Param): string | undefined {
  const s = first(v)?.trim();
  return s && s.length <= 200 ? s : undefined;
}

/** A path ("/pricing"); its query string is dropped, as the page rollups drop it. */
function pageParam(v: Param): string | undefined {
  const s = first(v)?.trim().split("?")[0];
  return s?.startsWith("/") && s.length <= 2048 ? s : undefined;
}

const AiBadge = () => (
  <span className="ml-2 rounded-full bg-indigo-50 px-2 py-0.5 text-xs font-semibold text-indigo-800 ring-1 ring-inset ring-indigo-600/30">
    AI
  </span>
);

function Figures({ items }: { items: readonly (readonly [string, string, string])[] }) {
  return (
    <div className="grid grid-cols-2 gap-4 lg:grid-cols-4">
      {items.map(([label, value, id]) => (
        <Card key={id}>
          <p className="text-sm text-slate-600">{label}</p>
          <p className="mt-1 text-2xl font-semibold text-slate-900" data-testid={id}>
            {value}
          </p>
        </Card>
      ))}
    </div>
  );
}

/** What part of the period a bot × page breakdown covers, when it read only the newest visits. */
function Coverage({ b }: { b: Breakdown }) {
  if (b.complete || !b.coversFrom) return null;
  return (
    <p className="mt-2 text-xs text-slate-600">
      Counted from the newest {formatNumber(b.scanned)} bot visits of the period (since{" "}
      {formatDateTime(b.coversFrom)}).
    </p>
  );
}

export default async function BotsPage({
  searchParams,
}: {
  searchParams: Promise<{ domain?: Param; days?: Param; bot?: Param; page?: Param }>;
}) {
  const { db, actor } = await requireActor();
  const sp = await searchParams;
  const domains = await listDomains(db, actor.accountId);
  if (domains.length === 0) return <NoDomains title="Bots" />;
  const row = domains.find((d) => d.hostname === first(sp.domain)) ?? domains[0]!;
  const days = intParam(first(sp.days), 1, 90, 30);
  const bot = botParam(sp.bot);
  // One filter at a time: a bot, else a page.
  const page = bot ? undefined : pageParam(sp.page);

  const href = (f: { bot?: string; page?: string } = {}) => {
    const q = new URLSearchParams({ domain: row.hostname, days: String(days) });
    if (f.bot) q.set("bot", f.bot);
    if (f.page) q.set("page", f.page);
    return `/dashboard/bots?${q}`;
  };
  const dayNames = (series: { day: string }[]) => series.map((d) => d.day);

  let body: React.ReactNode;
  if (bot) {
    const [detail, pages, period] = await Promise.all([
      getBotDetail(db, row.id, bot, days),
      getBotPages(db, row.id, bot, days),
      getBotPeriod(db, row.id, days),
    ]);
    const share = period.totalVisits > 0 ? Math.round((detail.visits / period.totalVisits) * 1000) / 10 : 0;
    body = (
      <>
        <Figures
          items={[
            [`${bot} visits, last ${days} days`, formatNumber(detail.visits), "period-visits"],
            ["Share of all bot visits", `${share}%`, "bot-share"],
            ["Verified visits", formatNumber(detail.verified), "bot-verified"],
            ["Spoofed visits", formatNumber(detail.spoofed), "bot-spoofed"],
          ]}
        />
        <Card title={`${bot} visits per day, last ${days} days`} className="mt-4">
          {detail.visits === 0 ? (
            <EmptyState>{bot} made no visits in this period.</EmptyState>
          ) : (
            <>
              <p className="mb-3 text-sm text-slate-700">
                {detail.purpose ? purposeLabel(detail.purpose) : null}
                {detail.isAIBot ? <AiBadge /> : null} <span className="mx-1 text-slate-400">·</span>
                <VerificationMark v={detail} />
              </p>
              <DailyBars
                label={`${bot} visits per day`}
                days={dayNames(detail.series.days)}
                series={[{ label: "Visits", values: detail.series.days.map((d) => d.value) }]}
              />
            </>
          )}
        </Card>
        <Card title={`Pages ${bot} visited, last ${days} days`} className="mt-4">
          <DataTable
            label={`Pages ${bot} visited`}
            columns={[
              {
                header: "Page",
                cell: (p) => (
                  <Link href={href({ page: p.key })} prefetch={false} className="link">
                    {p.key}
                  </Link>
                ),
                className: "break-all font-mono text-xs",
              },
              { header: "Visits", cell: (p) => formatNumber(p.visits), align: "right" },
            ]}
            rows={pages.rows}
            rowKey={(p) => p.key}
            empty="No pages in this period."
          />
          <Coverage b={pages} />
        </Card>
      </>
    );
  } else if (page) {
    const [crawls, bots] = await Promise.all([
      getPageCrawlSeries(db, row.id, page, days),
      getPageBots(db, row.id, page, days),
    ]);
    const botVisits = bots.rows.reduce((s, b) => s + b.visits, 0);
    body = (
      <>
        <Figures
          items={[
            [`AI crawls, last ${days} days`, formatNumber(crawls.total), "page-crawls"],
            ["Verified AI crawls", formatNumber(crawls.verified), "page-verified"],
            [
              `Bot visits${bots.rows.length === 10 ? " (top 10 bots)" : ""}`,
              formatNumber(botVisits),
              "page-visits",
            ],
            ["Bots seen", bots.rows.length === 10 ? "10+" : String(bots.rows.length), "page-bots"],
          ]}
        />
        <Card title={`AI crawls of this page per day, last ${days} days`} className="mt-4">
          {crawls.total === 0 ? (
            <EmptyState>No AI crawler fetched this page in this period.</EmptyState>
          ) : (
            <DailyBars
              label={`AI crawls of ${page} per day`}
              days={dayNames(crawls.days)}
              series={[{ label: "AI crawls", values: crawls.days.map((d) => d.value) }]}
            />
          )}
        </Card>
        <Card title={`Bots that visited this page, last ${days} days`} className="mt-4">
          <DataTable
            label="Bots that visited this page"
            columns={[
              {
                header: "Bot",
                cell: (b) => (
                  <>
                    <Link href={href({ bot: b.key })} prefetch={false} className="link">
                      {b.key}
                    </Link>
                    {b.isAIBot ? <AiBadge /> : null}
                  </>
                ),
              },
              { header: "Visits", cell: (b) => formatNumber(b.visits), align: "right" },
            ]}
            rows={bots.rows}
            rowKey={(b) => b.key}
            empty="No bot visited this page in this period."
          />
          <Coverage b={bots} />
        </Card>
      </>
    );
  } else {
    const [stats, period, series, topPages] = await Promise.all([
      getBotStats(db, actor.accountId, row.hostname),
      getBotPeriod(db, row.id, days),
      getBotPurposeSeries(db, row.id, days),
      getPeriodTopPages(db, row.id, days),
    ]);
    const bars: BarSeries[] = series.purposes.map((p) => ({
      label: purposeLabel(p),
      values: series.days.map((d) => Number(d[p] ?? 0)),
    }));
    body = (
      <>
        <Figures
          items={[
            [`Visits, last ${days} days`, formatNumber(period.totalVisits), "period-visits"],
            [`AI-bot visits, last ${days} days`, formatNumber(period.aiBotVisits), "period-ai-visits"],
            [`Bots seen, last ${days} days`, formatNumber(period.uniqueBots), "period-bots"],
            ["Visits since tracking began", formatNumber(stats.totalVisits), "total-visits"],
          ]}
        />
        <Card title={`Visits by bot purpose, last ${days} days`} className="mt-4">
          {series.purposes.length === 0 ? (
            <EmptyState>
              No bot visits in this period. Send visits with the tracking snippet on the Domains page.
            </EmptyState>
          ) : (
            <DailyBars
              label="Bot visits per day"
              days={series.days.map((d) => String(d.day))}
              series={bars}
            />
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
                      <Link href={href({ bot: b.name })} prefetch={false} className="link">
                        {b.name}
                      </Link>
                      {b.isAIBot ? <AiBadge /> : null}
                      <span className="block text-xs text-slate-600">{purposeLabel(b.purpose)}</span>
                    </>
                  ),
                },
                { header: "Visits", cell: (b) => formatNumber(b.visits), align: "right" },
                { header: "Verification", cell: (b) => <VerificationMark v={b} /> },
              ]}
              rows={period.topBots}
              rowKey={(b) => b.name}
              empty="None in this period."
            />
            <p className="mt-2 text-xs text-slate-600">
              Verified: the operator's signature, its published IP ranges or reverse DNS proves the visit.
              Spoofed: the visit claims the bot from an address its operator does not use.
            </p>
          </Card>
          <Card title={`Top pages by AI crawls, last ${days} days`}>
            <DataTable
              label="Top pages"
              columns={[
                {
                  header: "Page",
                  cell: (p) => (
                    <Link href={href({ page: p.page })} prefetch={false} className="link">
                      {p.page}
                    </Link>
                  ),
                  className: "break-all font-mono text-xs",
                },
                { header: "AI crawls", cell: (p) => formatNumber(p.aiCrawls), align: "right" },
              ]}
              rows={topPages}
              rowKey={(p) => p.page}
              empty="No AI crawler fetched a page in this period."
            />
            <p className="mt-2 text-xs text-slate-600">
              Fetches by AI crawlers (not user-triggered fetches). Choose a page for every bot that visited
              it.
            </p>
          </Card>
        </div>
      </>
    );
  }

  return (
    <>
      <PageHeader
        title="Bots"
        description="Search-engine and AI crawler visits your site reported to us. Choose a bot or a page to filter the page to it."
      />
      <BotsFilterForm
        domains={domains.map((d) => d.hostname)}
        domain={row.hostname}
        days={days}
        dayOptions={[7, 30, 90]}
        bot={bot}
        page={page}
      />
      {bot ? <FilterChip kind="Bot" value={bot} clearHref={href()} /> : null}
      {page ? <FilterChip kind="Page" value={page} clearHref={href()} /> : null}
      {body}
    </>
  );
}
