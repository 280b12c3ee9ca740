"use client";

import { useParams } from "next/navigation";
import { useState } from "react";
import type { IssueChange, ResultComparison } from "@/lib/analysis/compare-results";

interface PreviousRun {
  previous: { jobId: string; completedAt: string | null } | null;
  comparison: ResultComparison | null;
  reason?: string;
}

const signed = (n: number) => (n > 0 ? `+${n}` : String(n));

function IssueList({ title, items }: { title: string; items: IssueChange[] }) {
  return (
    <div>
      <h4 className="text-sm font-semibold text-slate-900">
        {title} ({items.length})
      </h4>
      {items.length ? (
        <ul className="mt-1 list-disc space-y-0.5 pl-5 text-sm text-slate-800">
          {items.map((c) => (
            <li key={c.id}>
              {c.title}
              {c.severity ? <span className="text-slate-600"> · {c.severity}</span> : null}
            </li>
          ))}
        </ul>
      ) : (
        <p className="text-sm text-slate-600">None.</p>
      )}
    </div>
  );
}

/** "Run again" (same tool, same input, billed as a new job) and "Compare with the previous run". */
export function RunActions({ tool, input }: { tool: string; input: unknown }) {
  const params = useParams<{ jobId?: string }>();
  const jobId = typeof params?.jobId === "string" ? params.jobId : undefined;
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<string | null>(null);
  const [previous, setPrevious] = useState<PreviousRun | null>(null);

  async function runAgain() {
    setBusy(true);
    setMessage(null);
    try {
      // Loaded on click: the result views stay renderable where no server actions exist (emails, tests).
      const { launchToolAction } = await import("@/lib/actions/launch-tool");
      const res = await launchToolAction(tool, input);
      if (res.ok) window.location.assign(`/dashboard/jobs/${res.jobId}`);
      else setMessage(res.message);
    } catch {
      setMessage("The run could not be started. Try again in a moment.");
    } finally {
      setBusy(false);
    }
  }

  async function compare() {
    if (!jobId) return;
    setMessage(null);
    try {
      const res = await fetch(`/api/dashboard/jobs/${jobId}/previous`, { cache: "no-store" });
      if (!res.ok) {
        setMessage(
          res.status === 404 ? "This run is no longer kept." : `The comparison failed (HTTP ${res.status}).`,
        );
        return;
      }
      setPrevious((await res.json()) as PreviousRun);
    } catch {
      setMessage("The comparison could not be loaded. Try again in a moment.");
    }
  }

  const diff = previous?.comparison;
  return (
    <section aria-label="Run actions" className="space-y-3">
      <div className="flex flex-wrap gap-2">
        <button type="button" className="btn-primary" onClick={runAgain} disabled={busy}>
          {busy ? "Starting…" : "Run again"}
        </button>
        {jobId ? (
          <button type="button" className="btn-secondary" onClick={compare}>
            Compare with the previous run
          </button>
        ) : null}
      </div>
      {message ? (
        <p role="alert" className="text-sm text-red-800">
          {message}
        </p>
      ) : null}
      {previous && !diff ? <p className="text-sm text-slate-700">{previous.reason}</p> : null}
      {diff ? (
        <div
          className="space-y-3 rounded-lg border border-slate-200 bg-white p-3"
          data-testid="run-comparison"
        >
          <p className="text-sm text-slate-800">
            Compared with the run of{" "}
            {previous?.previous?.completedAt
              ? new Date(previous.previous.completedAt).toLocaleString()
              : "before"}
            {diff.headlineDelta !== null ? (
              <>
                : score <strong>{signed(diff.headlineDelta)}</strong>
              </>
            ) : null}
            {Object.keys(diff.scoreDelta).length > 1
              ? ` (${Object.entries(diff.scoreDelta)
                  .map(([k, v]) => `${k} ${signed(v)}`)
                  .join(", ")})`
              : null}
          </p>
          <div className="grid gap-3 sm:grid-cols-3">
            <IssueList title="New issues" items={diff.new} />
            <IssueList title="Fixed" items={diff.fixed} />
            <IssueList title="Still open" items={diff.open} />
          </div>
        </div>
      ) : null}
    </section>
  );
}
