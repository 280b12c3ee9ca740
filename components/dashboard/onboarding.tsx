"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { Card } from "@/components/ui/card";
import { formatNumber } from "@/lib/dashboard/format";
import type { Onboarding, TrackingFigures } from "@/lib/dashboard/onboarding";

async function fetchOnboarding(): Promise<Onboarding> {
  const res = await fetch("/api/dashboard/onboarding", { cache: "no-store" });
  if (!res.ok) throw new Error(`HTTP ${res.status}`);
  return res.json();
}

/** The overview's checklist and tracking figures; while a domain waits for its first event, it polls. */
export function OnboardingPanel({ initial }: { initial: Onboarding }) {
  const { data = initial } = useQuery({
    queryKey: ["onboarding"],
    queryFn: fetchOnboarding,
    initialData: initial,
    refetchInterval: (q) => {
      const d = q.state.data;
      return d && d.domains.length > 0 && !d.firstEventReceived ? 4000 : false;
    },
  });
  return (
    <>
      {data.done ? null : <Checklist data={data} />}
      {data.tracking ? <TrackingCards tracking={data.tracking} /> : null}
    </>
  );
}

function Checklist({ data }: { data: Onboarding }) {
  const hasDomain = data.domains.length > 0;
  const steps = [
    {
      key: "domain",
      done: hasDomain,
      title: "Add your domain",
      body: hasDomain
        ? `Added: ${data.domains.map((d) => d.hostname).join(", ")}.`
        : "Register the site you want to follow.",
      href: "/dashboard/domains",
      cta: "Add a domain",
    },
    {
      key: "event",
      done: data.firstEventReceived,
      title: "Send a first event",
      body: data.firstEventReceived
        ? "First event received."
        : hasDomain
          ? "Waiting for the first event… Paste a tracking snippet into your server; this step ticks itself."
          : "Once a domain is added, its tracking snippet sends bot visits here.",
      href: "/dashboard/domains",
      cta: "Tracking snippets",
    },
    {
      key: "verify",
      done: data.verified,
      title: "Verify ownership",
      body: data.verified
        ? "Ownership verified."
        : "A DNS TXT record or a file on the site proves it is yours.",
      href: "/dashboard/domains",
      cta: "Verify",
    },
    {
      key: "audit",
      done: data.auditRun,
      title: "Run a first audit",
      body: data.auditRun
        ? "Audit launched."
        : "See what search engines and AI answer engines find on a page.",
      href: "/dashboard/tools/audits",
      cta: "Audit a page",
    },
  ];
  const remaining = steps.filter((s) => !s.done).length;
  return (
    <Card title="Get started" className="mb-4">
      <p className="text-sm text-slate-700" aria-live="polite" data-testid="onboarding-progress">
        {steps.length - remaining} of {steps.length} done
        {data.firstEventReceived ? " · first event received" : ""}
      </p>
      <ol className="mt-3 space-y-3" data-testid="onboarding">
        {steps.map((s, i) => (
          <li key={s.key} className="flex items-start gap-3" data-step={s.key} data-done={s.done}>
            <span
              aria-hidden="true"
              className={`mt-0.5 flex size-6 shrink-0 items-center justify-center rounded-full text-xs font-semibold ${
                s.done ? "bg-emerald-700 text-white" : "bg-slate-200 text-slate-800"
              }`}
            >
              {s.done ? "✓" : i + 1}
            </span>
            <div className="min-w-0 flex-1">
              <p className="text-sm font-medium text-slate-900">
                {s.title}
                <span className="sr-only">{s.done ? " (done)" : " (to do)"}</span>
              </p>
              <p className="text-sm text-slate-700">{s.body}</p>
            </div>
            {s.done ? null : (
              <Link href={s.href} className="btn-secondary shrink-0">
                {s.cta}
              </Link>
            )}
          </li>
        ))}
      </ol>
    </Card>
  );
}

function trendText(value: number | null): string {
  if (value === null) return "no earlier week to compare";
  if (value === 0) return "same as the week before";
  return `${value > 0 ? "+" : ""}${value}% on the week before`;
}

function TrackingCards({ tracking }: { tracking: TrackingFigures }) {
  return (
    <div className="mb-4 grid gap-4 sm:grid-cols-2" data-testid="tracking-figures">
      <Card>
        <p className="text-sm text-slate-600">AI-bot visits, last {tracking.days} days</p>
        <p className="mt-1 text-3xl font-semibold text-slate-900" data-testid="ai-bot-visits">
          {formatNumber(tracking.aiBotVisits)}
        </p>
        <p className="text-sm text-slate-700">{trendText(tracking.aiBotTrend)}</p>
        <Sparkline values={tracking.series.map((d) => d.aiBotVisits)} label="AI-bot visits per day" />
        <Link href="/dashboard/bots" className="link text-sm">
          Bots
        </Link>
      </Card>
      <Card>
        <p className="text-sm text-slate-600">Citations, last {tracking.days} days</p>
        <p className="mt-1 text-3xl font-semibold text-slate-900" data-testid="citations-count">
          {formatNumber(tracking.citations)}
        </p>
        <p className="text-sm text-slate-700">{trendText(tracking.citationTrend)}</p>
        <Sparkline values={tracking.series.map((d) => d.citations)} label="Citations per day" />
        <Link href="/dashboard/citations" className="link text-sm">
          Citations
        </Link>
      </Card>
    </div>
  );
}

/** A small line of daily values; the figures above it say the same in words. */
export function Sparkline({ values, label }: { values: number[]; label: string }) {
  const w = 240;
  const h = 40;
  const max = Math.max(1, ...values);
  const step = values.length > 1 ? w / (values.length - 1) : w;
  const points = values.map((v, i) => `${(i * step).toFixed(1)},${(h - 2 - (v / max) * (h - 4)).toFixed(1)}`);
  return (
    <svg
      viewBox={`0 0 ${w} ${h}`}
      className="my-2 h-10 w-full"
      role="img"
      aria-label={`${label}, over ${values.length} days, at most ${max}`}
    >
      <polyline points={points.join(" ")} fill="none" stroke="#4338ca" strokeWidth="2" />
    </svg>
  );
}
