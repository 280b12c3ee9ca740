"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import { ResultView } from "@/components/results/result-view";
import { StatusBadge } from "@/components/ui/card";
import { ScrollRegion } from "@/components/ui/scroll-region";
import { formatElapsed } from "@/lib/dashboard/format";
import { toolTitle } from "@/lib/dashboard/labels";
import type { JobView as Job } from "@/lib/jobs/view";
import { CREDITS_KEY } from "./use-credits";

const UNFINISHED = new Set(["pending", "processing"]);

async function fetchJob(jobId: string): Promise<Job> {
  const res = await fetch(`/api/dashboard/jobs/${jobId}`, { cache: "no-store" });
  if (!res.ok)
    throw new Error(res.status === 404 ? "Job not found (jobs are kept for 7 days)." : `HTTP ${res.status}`);
  return res.json();
}

/** A clock that ticks every second while `on`, for "Running for 12 s". */
function useNow(on: boolean): number | null {
  // Null until mounted: the server's clock is not the browser's, and the first render must match.
  const [now, setNow] = useState<number | null>(null);
  useEffect(() => {
    if (!on) return;
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [on]);
  return now;
}

/** "Queued for 3 s" or "Running for 12 s", from the job's own timestamps. */
function runningText(job: Pick<Job, "status" | "createdAt" | "startedAt">, now: number | null): string {
  if (now === null) return job.status === "pending" ? "Queued" : "Running";
  if (job.status === "pending") return `Queued for ${formatElapsed(now - Date.parse(job.createdAt))}`;
  return `Running for ${formatElapsed(now - Date.parse(job.startedAt ?? job.createdAt))}`;
}

/**
 * Polls the job until it completes or fails, then shows its result view. When a job this view watched ends,
 * the account's balance is refetched (a failed job's refund, a partial refund), so every card showing the
 * balance follows without a reload.
 */
export function JobView({ jobId, initial }: { jobId: string; initial?: Job }) {
  const queryClient = useQueryClient();
  const { data: job, error } = useQuery({
    queryKey: ["job", jobId],
    queryFn: () => fetchJob(jobId),
    initialData: initial,
    refetchInterval: (q) => (q.state.data && !UNFINISHED.has(q.state.data.status) ? false : 1500),
  });
  const status = job?.status;
  // A job that was already finished when the page was drawn moved no credits since; any other that is seen
  // finished (even at the first poll: a fast runner can fail and refund it before then) refreshes the balance once.
  const settled = useRef(Boolean(initial && !UNFINISHED.has(initial.status)));
  useEffect(() => {
    if (!status || UNFINISHED.has(status) || settled.current) return;
    settled.current = true;
    void queryClient.invalidateQueries({ queryKey: CREDITS_KEY });
  }, [status, queryClient]);
  const now = useNow(Boolean(status && UNFINISHED.has(status)));
  if (error && !job)
    return (
      <p role="alert" className="text-sm text-red-800">
        {error.message}
      </p>
    );
  if (!job) {
    return (
      <p role="status" className="text-sm text-slate-700">
        Loading the job…
      </p>
    );
  }
  const running = UNFINISHED.has(job.status);
  return (
    <section
      aria-labelledby="job-heading"
      className="space-y-4"
      data-testid="job-view"
      data-status={job.status}
    >
      <div className="flex flex-wrap items-center gap-3">
        <h2 id="job-heading" className="text-lg font-semibold text-slate-900">
          {toolTitle(job.tool)}
        </h2>
        <StatusBadge status={job.status} />
        <span className="text-sm text-slate-600">
          {job.creditsCharged} credits
          {job.creditsRefunded
            ? " · refunded"
            : job.creditsRefundedAmount > 0
              ? ` · ${job.creditsRefundedAmount} refunded`
              : ""}
        </span>
      </div>
      {running ? (
        <div className="space-y-2">
          {/* Announced once per state; the ticking seconds below are for the eye only. */}
          <p role="status" className="sr-only">
            {job.status === "pending" ? "Queued" : "Running"}
          </p>
          <p className="text-sm text-slate-700" data-testid="job-running" aria-hidden="true">
            {runningText(job, now)}
            {job.status === "pending" ? " · waiting for a worker" : ""}
          </p>
          <div className="h-2 w-full overflow-hidden rounded bg-slate-200" aria-hidden="true">
            <div className="h-full w-1/3 animate-pulse rounded bg-indigo-600" />
          </div>
        </div>
      ) : null}
      {job.status === "failed" ? (
        <div role="alert" className="rounded-md border border-red-200 bg-red-50 p-4 text-sm text-red-900">
          <p className="font-semibold">The job failed{job.error ? ` (${job.error.code})` : ""}.</p>
          {job.error ? <p className="mt-1">{job.error.message}</p> : null}
          <p className="mt-1">
            {job.creditsRefunded
              ? `The ${job.creditsCharged} credits were refunded.`
              : "No credits were kept."}
          </p>
        </div>
      ) : null}
      {job.status === "completed" ? <ResultView tool={job.tool} result={job.result} /> : null}
      {job.status === "completed" ? (
        <details className="rounded-lg border border-slate-200 bg-white p-3">
          <summary className="cursor-pointer text-sm font-medium text-slate-900">Raw JSON</summary>
          <ScrollRegion
            label="Raw JSON of the result"
            className="mt-2 max-h-[32rem] rounded bg-slate-900 p-3"
          >
            <pre className="text-xs text-slate-100">{JSON.stringify(job.result, null, 2)}</pre>
          </ScrollRegion>
        </details>
      ) : null}
    </section>
  );
}
