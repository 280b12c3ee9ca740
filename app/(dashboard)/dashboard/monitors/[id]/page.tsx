import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { LazyShareOfVoiceChart } from "@/components/charts/lazy";
import { DismissMonitorNotice, MonitorControls } from "@/components/dashboard/monitor-controls";
import { pct, runStatusText, scheduleText, statusText } from "@/components/dashboard/monitor-labels";
import { Card, PageHeader } from "@/components/ui/card";
import { DataTable } from "@/components/ui/data-table";
import { EmptyState } from "@/components/ui/empty-state";
import { canManageKeys } from "@/lib/accounts/accounts";
import { safeHref, splitOnBrand } from "@/lib/ai-visibility/highlight";
import { requireActor } from "@/lib/auth/session";
import { FormError } from "@/lib/dashboard/errors";
import { formatDateTime, formatNumber } from "@/lib/dashboard/format";
import { getMonitorAs, monitorNotices, monitorReportPage } from "@/lib/dashboard/monitors";
import type { AnswerView, MonitorReport, RateSet } from "@/lib/monitors/schemas";

export const metadata: Metadata = { title: "Monitor report" };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
type Rate = RateSet["mentionRate"];
type Change = NonNullable<RateSet["change"]>["mentionRate"];

const interval = (r: Rate) => (r.low === null || r.high === null ? "" : `${pct(r.low)}–${pct(r.high)}`);

/** A rate with its interval and n, e.g. "42% (31–54%, n = 60)". */
function RateText({ rate }: { rate: Rate }) {
  if (rate.n === 0) return <span className="text-slate-600">no data (n = 0)</span>;
  return (
    <>
      <span className="font-semibold">{pct(rate.value)}</span>{" "}
      <span className="text-xs text-slate-600">
        ({interval(rate)}, n = {rate.n})
      </span>
    </>
  );
}

function ChangeText({ change }: { change: Change | undefined }) {
  if (!change) return null;
  if (!change.significant) return <span className="text-xs text-slate-600">no significant change</span>;
  const up = (change.delta ?? 0) > 0;
  return (
    <span
      className={`rounded px-1 text-xs font-semibold ${up ? "bg-emerald-50 text-emerald-900" : "bg-red-50 text-red-900"}`}
      data-testid="significant-change"
    >
      {up ? "▲" : "▼"} {up ? "+" : ""}
      {Math.round((change.delta ?? 0) * 100)} pts, significant
    </span>
  );
}

const GROUNDING_LABEL: Record<MonitorReport["groundingDiff"][number]["state"], string> = {
  not_retrieved: "Not retrieved",
  retrieved_not_cited: "Retrieved, not cited",
  cited: "Cited",
};
const GROUNDING_STYLE: Record<MonitorReport["groundingDiff"][number]["state"], string> = {
  not_retrieved: "bg-slate-100 text-slate-800",
  retrieved_not_cited: "bg-amber-50 text-amber-900",
  cited: "bg-emerald-50 text-emerald-900",
};
const CLASS_LABEL: Record<MonitorReport["citedDomains"][number]["class"], string> = {
  own: "Your site",
  competitor: "Competitor",
  user_generated: "User-generated",
  reference: "Reference",
  news: "News",
  other: "Other",
};

function Url({ url }: { url: string }) {
  const href = safeHref(url);
  return href ? (
    <a className="link break-all" href={href} rel="noopener noreferrer nofollow">
      {url}
    </a>
  ) : (
    <span className="break-all">{url}</span>
  );
}

/** The answer's text with the brand's names marked (and the competitors' names, apart). */
function Highlighted({ text, brands, rivals }: { text: string; brands: string[]; rivals: string[] }) {
  return (
    <p className="whitespace-pre-wrap break-words text-sm text-slate-800">
      {splitOnBrand(text, brands).map((part, i) =>
        part.brand ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one fixed text, never reordered
          <mark key={i} className="rounded bg-yellow-100 px-0.5 text-slate-900">
            {part.text}
          </mark>
        ) : (
          // biome-ignore lint/suspicious/noArrayIndexKey: as above
          <span key={i}>
            {splitOnBrand(part.text, rivals).map((p, j) =>
              p.brand ? (
                // biome-ignore lint/suspicious/noArrayIndexKey: as above
                <mark key={j} className="rounded bg-sky-100 px-0.5 text-slate-900">
                  {p.text}
                </mark>
              ) : (
                p.text
              ),
            )}
          </span>
        ),
      )}
    </p>
  );
}

function UrlList({ title, urls }: { title: string; urls: string[] }) {
  return (
    <div className="min-w-0">
      <h3 className="text-xs font-semibold uppercase tracking-wide text-slate-600">
        {title} ({urls.length})
      </h3>
      {urls.length ? (
        <ul className="mt-1 space-y-1 text-sm">
          {urls.map((u) => (
            <li key={u}>
              <Url url={u} />
            </li>
          ))}
        </ul>
      ) : (
        <p className="mt-1 text-sm text-slate-600">None.</p>
      )}
    </div>
  );
}

function AnswerDetails({ a, brands, rivals }: { a: AnswerView; brands: string[]; rivals: string[] }) {
  const verdict =
    a.status !== "succeeded"
      ? a.status === "failed"
        ? `failed (refunded): ${a.error?.message ?? "no answer"}`
        : a.status
      : a.mentioned
        ? `mentioned at #${a.position}${a.sentiment ? `, ${a.sentiment}` : ""}`
        : "not mentioned";
  return (
    <details className="rounded-md border border-slate-200 p-2" data-testid="monitor-answer">
      <summary className="cursor-pointer text-sm">
        <span className="font-medium">{a.engine}</span> · sample {a.sample} · {verdict}
        <span className="block break-words text-xs text-slate-600">{a.prompt}</span>
      </summary>
      <div className="mt-2 space-y-3">
        {a.answer ? (
          <Highlighted text={a.answer} brands={brands} rivals={rivals} />
        ) : (
          <p className="text-sm text-slate-600">No answer text.</p>
        )}
        <div className="grid gap-3 md:grid-cols-3">
          <UrlList title="Cited" urls={a.cited} />
          <UrlList title="Retrieved" urls={a.retrieved} />
          <div className="min-w-0">
            <h3 className="text-xs font-semibold uppercase tracking-wide text-slate-600">
              Searches ({a.queries.length})
            </h3>
            {a.queries.length ? (
              <ul className="mt-1 list-inside list-disc text-sm">
                {a.queries.map((q) => (
                  <li key={q} className="break-words">
                    {q}
                  </li>
                ))}
              </ul>
            ) : (
              <p className="mt-1 text-sm text-slate-600">Not reported by this engine.</p>
            )}
          </div>
        </div>
        {a.sentimentMethod || a.model ? (
          <p className="text-xs text-slate-600">
            {a.model ? `Model ${a.model}. ` : ""}
            {a.sentimentMethod ? `Sentiment by ${a.sentimentMethod}.` : ""}
          </p>
        ) : null}
      </div>
    </details>
  );
}

/** The competitor's name as the answers would write it: the first label of its domain. */
const rivalName = (domain: string) => domain.replace(/^www\./, "").split(".")[0] ?? domain;

export default async function MonitorReportPage({
  params,
  searchParams,
}: {
  params: Promise<{ id: string }>;
  searchParams: Promise<{ from?: string; to?: string; compare?: string; runs?: string }>;
}) {
  const { id } = await params;
  if (!UUID.test(id)) notFound();
  const sp = await searchParams;
  const { db, actor } = await requireActor();
  const monitor = await getMonitorAs(db, actor, id).catch((err) => {
    if (err instanceof FormError) return null;
    throw err;
  });
  if (!monitor) notFound();
  const label = monitor.name ?? monitor.domain;
  const manager = canManageKeys(actor.role);
  const [notices, page] = await Promise.all([
    monitorNotices(db, actor, monitor),
    monitorReportPage(db, actor, id, sp).catch((err) => {
      if (err instanceof FormError) return err;
      throw err;
    }),
  ]);
  const csvQuery = new URLSearchParams();
  if (sp.from) csvQuery.set("from", sp.from);
  if (sp.to) csvQuery.set("to", sp.to);
  if (sp.compare === "previous") csvQuery.set("compare", "previous");
  const brands = monitor.brandNames.length ? monitor.brandNames : [monitor.domain.split(".")[0] ?? ""];
  const rivals = monitor.competitors.map(rivalName);

  return (
    <>
      <PageHeader
        title={label}
        description={`${monitor.domain} · ${monitor.prompts.length} prompts × ${monitor.engines.length} engines × ${monitor.samples} samples · ${scheduleText(monitor.schedule)} · ${statusText(monitor)}`}
      >
        <Link href="/dashboard/monitors" className="btn-secondary">
          All monitors
        </Link>
        {manager ? (
          <Link href={`/dashboard/monitors/${monitor.id}/edit`} className="btn-secondary">
            Edit
          </Link>
        ) : null}
      </PageHeader>
      {manager ? (
        <div className="mb-4">
          <MonitorControls
            id={monitor.id}
            label={label}
            status={monitor.status}
            creditsPerRun={monitor.estimate.creditsPerRun}
            afterDelete="/dashboard/monitors"
          />
        </div>
      ) : null}
      {notices.map((n) => (
        <div
          key={n.id}
          role="status"
          data-testid="monitor-notice"
          className="mb-4 flex flex-wrap items-center justify-between gap-3 rounded-md bg-amber-50 p-3 text-sm text-amber-950"
        >
          <span className="min-w-0 break-words">
            {n.message} <span className="text-xs">({formatDateTime(n.createdAt)})</span>
          </span>
          <DismissMonitorNotice id={n.id} />
        </div>
      ))}

      <form method="get" className="mb-4 flex flex-wrap items-end gap-3" aria-label="Report period">
        <div>
          <label htmlFor="r-from" className="field-label">
            From
          </label>
          <input id="r-from" name="from" type="date" defaultValue={sp.from ?? ""} className="field-input" />
        </div>
        <div>
          <label htmlFor="r-to" className="field-label">
            To (inclusive)
          </label>
          <input id="r-to" name="to" type="date" defaultValue={sp.to ?? ""} className="field-input" />
        </div>
        <label className="flex items-center gap-2 pb-2 text-sm">
          <input type="checkbox" name="compare" value="previous" defaultChecked={sp.compare === "previous"} />
          Compare with the previous period
        </label>
        <button type="submit" className="btn-secondary">
          Show
        </button>
        {page instanceof FormError ? null : (
          <a
            className="link pb-2 text-sm"
            href={`/api/dashboard/monitors/${monitor.id}/report${csvQuery.size ? `?${csvQuery}` : ""}`}
            download
          >
            Download CSV
          </a>
        )}
      </form>

      {page instanceof FormError ? (
        <p role="alert" className="mb-4 rounded-md bg-red-50 p-3 text-sm text-red-800">
          {page.message}
        </p>
      ) : (
        <ReportBody
          monitorLabel={label}
          prompts={monitor.prompts}
          page={page}
          brands={brands}
          rivals={rivals}
          sp={sp}
        />
      )}
    </>
  );
}

function ReportBody({
  monitorLabel,
  prompts,
  page,
  brands,
  rivals,
  sp,
}: {
  monitorLabel: string;
  prompts: string[];
  page: Awaited<ReturnType<typeof monitorReportPage>>;
  brands: string[];
  rivals: string[];
  sp: { from?: string; to?: string; compare?: string };
}) {
  const { report, series, runs } = page;
  const promptOrder = new Map(prompts.map((p, i) => [p, i]));
  const answerOrder = (a: AnswerView, b: AnswerView) =>
    (promptOrder.get(a.prompt) ?? 999) - (promptOrder.get(b.prompt) ?? 999) ||
    a.engine.localeCompare(b.engine) ||
    a.sample - b.sample;
  const t = report.total;
  const engines = [...new Set(report.byPrompt.map((c) => c.engine))];
  const promptsInReport = [...new Set(report.byPrompt.map((c) => c.prompt))];
  const cell = new Map(report.byPrompt.map((c) => [`${c.prompt}\u0000${c.engine}`, c]));
  const points = series.map((p) => ({
    label: new Date(p.at).toISOString().slice(5, 16).replace("T", " "),
    value: p.shareOfVoice.value === null ? null : Math.round(p.shareOfVoice.value * 100),
    band:
      p.shareOfVoice.low === null || p.shareOfVoice.high === null
        ? null
        : ([Math.round(p.shareOfVoice.low * 100), Math.round(p.shareOfVoice.high * 100)] as [number, number]),
    n: p.shareOfVoice.n,
  }));
  const moreRunsQuery = new URLSearchParams({
    ...(sp.from ? { from: sp.from } : {}),
    ...(sp.to ? { to: sp.to } : {}),
    ...(sp.compare === "previous" ? { compare: "previous" } : {}),
    runs: String(page.runLimit + 5),
  });
  return (
    <>
      <p className="mb-4 text-sm text-slate-700">
        {formatDateTime(report.period.from)} to {formatDateTime(report.period.to)}: {formatNumber(t.answers)}{" "}
        answers
        {report.failedAnswers
          ? `, ${formatNumber(report.failedAnswers)} failed and refunded (not counted)`
          : ""}
        {report.previousPeriod
          ? `; compared with ${formatDateTime(report.previousPeriod.from)} to ${formatDateTime(report.previousPeriod.to)}`
          : ""}
        .
      </p>
      <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        {(
          [
            ["Share of voice", t.shareOfVoice, t.change?.shareOfVoice],
            ["Mention rate", t.mentionRate, t.change?.mentionRate],
            ["Citation rate", t.citationRate, t.change?.citationRate],
          ] as const
        ).map(([title, rate, change]) => (
          <Card key={title}>
            <h2 className="text-sm text-slate-600">{title}</h2>
            <p className="mt-1 text-3xl font-semibold text-slate-900">{rate.n ? pct(rate.value) : "–"}</p>
            <p className="text-xs text-slate-600">
              {rate.n ? `95% interval ${interval(rate)}, n = ${rate.n}` : "n = 0"}
            </p>
            <ChangeText change={change} />
          </Card>
        ))}
        <Card>
          <h2 className="text-sm text-slate-600">Average position</h2>
          <p className="mt-1 text-3xl font-semibold text-slate-900">
            {t.averagePosition.value === null ? "–" : `#${t.averagePosition.value}`}
          </p>
          <p className="text-xs text-slate-600">
            among the brands named, n = {t.averagePosition.n} · tone {t.sentiment.positive} positive,{" "}
            {t.sentiment.neutral} neutral, {t.sentiment.negative} negative
          </p>
        </Card>
      </div>

      <Card title="Share of voice per run" className="mt-4">
        {points.length === 0 ? (
          <EmptyState>No run with answers in this period yet.</EmptyState>
        ) : (
          <>
            <LazyShareOfVoiceChart points={points} />
            <details className="mt-2 text-sm">
              <summary className="cursor-pointer">The figures per run</summary>
              <ul className="mt-2 space-y-1">
                {series.map((p) => (
                  <li key={p.runId}>
                    {formatDateTime(p.at)}: <RateText rate={p.shareOfVoice} />
                  </li>
                ))}
              </ul>
            </details>
          </>
        )}
        <p className="mt-2 text-xs text-slate-600">
          Share of voice: {report.methods.shareOfVoice.replace(/\.$/, "")}. The band is the{" "}
          {report.methods.interval}.
        </p>
      </Card>

      <Card title="Your brand and your competitors" className="mt-4">
        <DataTable
          label="Brand and competitors"
          columns={[
            { header: "Brand", cell: (r) => r.name, className: "break-words" },
            { header: "Mention rate", cell: (r) => <RateText rate={r.rates.mentionRate} /> },
            { header: "Share of voice", cell: (r) => <RateText rate={r.rates.shareOfVoice} /> },
            { header: "Citation rate", cell: (r) => <RateText rate={r.rates.citationRate} /> },
            {
              header: "Avg. position",
              cell: (r) =>
                r.rates.averagePosition.value === null ? "–" : `#${r.rates.averagePosition.value}`,
            },
            {
              header: "Change",
              cell: (r) =>
                r.rates.change ? (
                  <span className="flex flex-col gap-1">
                    <ChangeText change={r.rates.change.mentionRate} />
                  </span>
                ) : (
                  "—"
                ),
            },
          ]}
          rows={[
            { name: `${monitorLabel} (you)`, rates: t as RateSet },
            ...report.competitors.map((c) => ({ name: c.domain, rates: c as RateSet })),
          ]}
          rowKey={(r) => r.name}
          empty="No brand tracked."
        />
      </Card>

      <Card title="Prompt × engine" className="mt-4">
        {promptsInReport.length === 0 ? (
          <EmptyState>No answers in this period.</EmptyState>
        ) : (
          // biome-ignore lint/a11y: a scrolling region must be reachable by keyboard, named as a group
          <div className="table-scroll" role="group" aria-label="Prompt by engine" tabIndex={0}>
            <table className="data-table">
              <thead>
                <tr>
                  <th scope="col">Prompt</th>
                  {engines.map((e) => (
                    <th key={e} scope="col">
                      {e}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {promptsInReport.map((p) => (
                  <tr key={p}>
                    <th scope="row" className="min-w-[12rem] max-w-xs break-words text-left font-normal">
                      {p}
                    </th>
                    {engines.map((e) => {
                      const c = cell.get(`${p}\u0000${e}`);
                      return (
                        <td key={e} className="min-w-[11rem] align-top text-sm">
                          {c ? (
                            <>
                              <span className="block">
                                Mentioned <RateText rate={c.mentionRate} />
                              </span>
                              <ChangeText change={c.change?.mentionRate} />
                              <span className="block">
                                Cited <RateText rate={c.citationRate} />
                              </span>
                              <ChangeText change={c.change?.citationRate} />
                            </>
                          ) : (
                            <span className="text-slate-600">n = 0</span>
                          )}
                        </td>
                      );
                    })}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        <p className="mt-2 text-xs text-slate-600">
          Each rate: {report.methods.interval}, with its sample size n. A change is marked only when
          significant ({report.methods.change}); otherwise it reads “no significant change”.
        </p>
      </Card>

      <div className="mt-4 grid gap-4 lg:grid-cols-2">
        <Card title="What the engines read and cite of your site">
          <DataTable
            label="Grounding"
            columns={[
              { header: "Prompt", cell: (g) => g.prompt, className: "min-w-[10rem] max-w-xs break-words" },
              { header: "Engine", cell: (g) => g.engine },
              {
                header: "State",
                cell: (g) => (
                  <span
                    className={`whitespace-nowrap rounded px-1.5 py-0.5 text-xs ${GROUNDING_STYLE[g.state]}`}
                  >
                    {GROUNDING_LABEL[g.state]}
                  </span>
                ),
              },
              {
                header: "Page",
                cell: (g) => (g.url ? <Url url={g.url} /> : "—"),
                className: "min-w-[10rem] max-w-xs",
              },
              {
                header: "Retrieved / cited",
                cell: (g) => `${g.retrievedIn} / ${g.citedIn} of ${g.answers}`,
                className: "whitespace-nowrap",
              },
            ]}
            rows={report.groundingDiff}
            rowKey={(g, i) => `${g.prompt}-${g.engine}-${g.url ?? "none"}-${i}`}
            empty="No answers in this period."
          />
        </Card>
        <Card title="Cited domains">
          <DataTable
            label="Cited domains"
            columns={[
              { header: "Domain", cell: (d) => d.domain, className: "break-all" },
              { header: "Class", cell: (d) => CLASS_LABEL[d.class] },
              { header: "Citations", cell: (d) => formatNumber(d.count), align: "right" },
            ]}
            rows={report.citedDomains}
            rowKey={(d) => d.domain}
            empty="No source cited in this period."
          />
        </Card>
      </div>

      <Card title="Runs and answers" className="mt-4">
        {runs.length === 0 ? (
          <EmptyState>No run yet.</EmptyState>
        ) : (
          <ul className="space-y-3">
            {runs.map((r) => (
              <li key={r.id}>
                <details className="rounded-md border border-slate-200 p-3" data-testid="monitor-run">
                  <summary className="cursor-pointer text-sm">
                    <span className="font-medium">{formatDateTime(r.createdAt)}</span> ·{" "}
                    {r.trigger === "manual" ? "run now" : "scheduled"} · {runStatusText(r)} ·{" "}
                    {r.answers.filter((a) => a.status === "succeeded").length} of {r.answersPlanned} answers ·{" "}
                    {r.creditsCharged} credits charged
                    {r.creditsRefunded ? `, ${r.creditsRefunded} refunded` : ""}
                  </summary>
                  <div className="mt-3 space-y-2">
                    {r.answers.length === 0 ? (
                      <p className="text-sm text-slate-600">No answer in this run.</p>
                    ) : (
                      [...r.answers]
                        .sort(answerOrder)
                        .map((a) => (
                          <AnswerDetails
                            key={`${a.engine}-${a.prompt}-${a.sample}`}
                            a={a}
                            brands={brands}
                            rivals={rivals}
                          />
                        ))
                    )}
                  </div>
                </details>
              </li>
            ))}
          </ul>
        )}
        {page.moreRuns ? (
          <p className="mt-3 text-sm">
            <Link className="link" href={`?${moreRunsQuery}`}>
              Show older runs
            </Link>
          </p>
        ) : null}
      </Card>
    </>
  );
}
