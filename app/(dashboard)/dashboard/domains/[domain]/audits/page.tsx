import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { CreateScheduleForm, ScheduleActions } from "@/components/dashboard/schedules";
import { ScoreTrend } from "@/components/dashboard/score-trend";
import { Card, PageHeader, StatusBadge } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { LocalTime } from "@/components/ui/local-time";
import { canManageKeys } from "@/lib/accounts/accounts";
import { requireActor } from "@/lib/auth/session";
import { domainAudits } from "@/lib/dashboard/schedules";
import type { HistoryRun, ScheduleOverview } from "@/lib/schedules";
import { SCHEDULE_LIMITS } from "@/lib/schedules/schemas";
import { TOOL_TITLES } from "@/lib/tools/titles";

export const metadata: Metadata = { title: "Scheduled audits" };

const toolTitle = (tool: string) => TOOL_TITLES[tool as keyof typeof TOOL_TITLES] ?? tool;

function openFor(since: string, now: number): string {
  const days = Math.floor((now - new Date(since).getTime()) / 86_400_000);
  return days < 1 ? "since today" : days === 1 ? "for 1 day" : `for ${days} days`;
}

const VITAL_LABELS = { lcp: "LCP", inp: "INP", cls: "CLS" } as const;
const vitalText = (metric: "lcp" | "inp" | "cls", v: number | null) =>
  v === null ? "–" : metric === "cls" ? v.toFixed(3) : `${Math.round(v)} ms`;

function LastChanges({ run }: { run: HistoryRun }) {
  const c = run.changes;
  if (!c)
    return <p className="text-sm text-slate-700">The first completed run: nothing to compare with yet.</p>;
  const deltas = Object.entries(c.scoreDelta);
  return (
    <div className="space-y-2 break-words text-sm text-slate-800">
      {c.regressions.length > 0 ? (
        <p role="alert" className="rounded-md bg-red-50 p-2 text-red-800">
          Regressed: {c.regressions.join(" ")}
        </p>
      ) : null}
      {deltas.length > 0 ? (
        <p>
          Scores:{" "}
          {deltas.map(([name, d]) => (
            <span key={name} className="mr-3">
              {name} {d > 0 ? `+${d}` : d}
            </span>
          ))}
        </p>
      ) : null}
      {c.vitals.length > 0 ? (
        <ul>
          {c.vitals.map((v) => (
            <li key={v.metric}>
              {VITAL_LABELS[v.metric]}: {vitalText(v.metric, v.before)} → {vitalText(v.metric, v.after)}
              {v.ratingChanged ? ` (${v.ratingBefore} → ${v.ratingAfter})` : ""}
            </li>
          ))}
        </ul>
      ) : null}
      <p>
        {c.new.length} new, {c.fixed.length} fixed, {c.open.length} still open.
      </p>
      {c.new.length > 0 ? (
        <div>
          <h4 className="font-medium">New</h4>
          <ul className="list-disc pl-5">
            {c.new.map((i) => (
              <li key={i.id}>
                {i.title}
                {i.severity ? ` (${i.severity})` : ""}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      {c.fixed.length > 0 ? (
        <div>
          <h4 className="font-medium">Fixed</h4>
          <ul className="list-disc pl-5">
            {c.fixed.map((i) => (
              <li key={i.id}>{i.title}</li>
            ))}
          </ul>
        </div>
      ) : null}
    </div>
  );
}

function ScheduleCard({
  o,
  domain,
  manager,
  now,
}: {
  o: ScheduleOverview;
  domain: string;
  manager: boolean;
  now: number;
}) {
  const s = o.schedule;
  const label = `${toolTitle(s.tool)} of ${s.url}`;
  const when =
    s.every === "day"
      ? `Every day at ${s.hour}:00 (${s.timeZone})`
      : `Every ${s.weekday} at ${s.hour}:00 (${s.timeZone})`;
  return (
    <Card>
      <div className="mb-3 flex flex-wrap items-start justify-between gap-2">
        <h2 className="min-w-0 break-all text-base font-semibold text-slate-900">{label}</h2>
        <span
          className={`text-sm font-medium ${s.status === "active" ? "text-emerald-800" : "text-amber-900"}`}
        >
          {s.status === "active" ? "Active" : "Paused"}
        </span>
      </div>
      <p className="text-sm text-slate-700">
        {when} · {s.estimate.creditsPerRun} credits a run (about {s.estimate.creditsPerMonth} a month)
        {s.monthlyCreditCap !== null ? ` · cap ${s.monthlyCreditCap} a month` : ""}
        {s.status === "paused"
          ? s.pauseReason === "domain_removed"
            ? " · paused: the domain was removed"
            : " · paused"
          : s.nextRunAt
            ? " · next run "
            : ""}
        {s.status === "active" && s.nextRunAt ? <LocalTime value={s.nextRunAt} /> : null}
      </p>
      {manager ? (
        <div className="mt-3">
          <ScheduleActions id={s.id} domain={domain} paused={s.status === "paused"} label={label} />
        </div>
      ) : null}
      {o.latest && o.latest.status !== "completed" ? (
        <p className="mt-3 text-sm text-slate-800">
          Latest run: {o.latest.status}
          {o.latest.skipReason === "monthly_cap"
            ? " (it would have passed the monthly cap)"
            : o.latest.skipReason === "insufficient_credits"
              ? " (not enough credits)"
              : o.latest.error
                ? ` (${o.latest.error.message})`
                : ""}
        </p>
      ) : null}
      <h3 className="mt-4 text-sm font-semibold text-slate-900">Trend</h3>
      {o.trend.length === 0 ? (
        <p className="text-sm text-slate-700">No completed run yet.</p>
      ) : (
        <ScoreTrend title={`${label} scores`} points={o.trend} />
      )}
      {o.lastCompleted ? (
        <>
          <h3 className="mt-4 text-sm font-semibold text-slate-900">
            What changed in the last run (<LocalTime value={o.lastCompleted.createdAt} />)
          </h3>
          <LastChanges run={o.lastCompleted} />
          <h3 className="mt-4 text-sm font-semibold text-slate-900">Open issues ({o.openIssues.length})</h3>
          {o.openIssues.length === 0 ? (
            <p className="text-sm text-slate-700">None.</p>
          ) : (
            <ul className="mt-1 space-y-1 break-words text-sm text-slate-800">
              {o.openIssues.map((i) => (
                <li key={i.id}>
                  <StatusBadge status={i.status} /> {i.title}
                  {i.severity ? ` (${i.severity})` : ""} — open {openFor(i.since, now)}, {i.runs}{" "}
                  {i.runs === 1 ? "run" : "runs"}
                </li>
              ))}
            </ul>
          )}
        </>
      ) : null}
    </Card>
  );
}

export default async function DomainAuditsPage({ params }: { params: Promise<{ domain: string }> }) {
  const { domain: raw } = await params;
  const { db, actor } = await requireActor();
  const data = await domainAudits(db, actor, decodeURIComponent(raw));
  if (!data) notFound();
  const manager = canManageKeys(actor.role);
  const now = Date.now();
  return (
    <>
      <PageHeader
        title={`Scheduled audits: ${data.domain}`}
        description={`Audits of this domain's pages run daily or weekly, billed per run, kept 13 months. Each run is compared with the one before: a score down ${SCHEDULE_LIMITS.regressionPoints} points or more, or a new error, counts as a regression.`}
      />
      <div className="space-y-4">
        {manager ? (
          <Card title="Schedule an audit">
            <CreateScheduleForm domain={data.domain} />
          </Card>
        ) : null}
        {data.schedules.length === 0 ? (
          <EmptyState>No scheduled audits for this domain yet.</EmptyState>
        ) : (
          data.schedules.map((o) => (
            <ScheduleCard key={o.schedule.id} o={o} domain={data.domain} manager={manager} now={now} />
          ))
        )}
      </div>
    </>
  );
}
