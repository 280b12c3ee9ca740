"use client";

import { useState } from "react";
import { checkInfo } from "@/lib/analysis/check-catalog";
import type { CheckResult } from "@/lib/tools/shared/audit-schema";

const ICON = { pass: "✓", warn: "!", fail: "✕" } as const;
const STATUS_WORDS = { pass: "Passed", warn: "Warning", fail: "Failed" } as const;
const SEVERITY_STYLE = {
  error: "bg-red-50 text-red-800 ring-red-600/30",
  warning: "bg-amber-50 text-amber-900 ring-amber-600/30",
  notice: "bg-sky-50 text-sky-800 ring-sky-600/30",
} as const;

/** The check in words; results stored before checks carried their words take them from the catalogue. */
function wordsOf(c: CheckResult) {
  const info = checkInfo(c.id);
  return {
    title: c.title ?? info.title,
    severity: c.severity ?? info.severity,
    meaning: c.meaning ?? info.meaning,
    fix: c.fix ?? info.fix,
  };
}
const ICON_STYLE = {
  pass: "bg-emerald-100 text-emerald-800",
  warn: "bg-amber-100 text-amber-900",
  fail: "bg-red-100 text-red-800",
} as const;

/** Checks as a pass/warn/fail checklist, failures first, filterable by status. */
export function Checklist({ checks, label }: { checks: CheckResult[]; label: string }) {
  const [filter, setFilter] = useState<"all" | "fail" | "warn" | "pass">("all");
  const order = { fail: 0, warn: 1, pass: 2 };
  const shown = checks
    .filter((c) => filter === "all" || c.status === filter)
    .sort((a, b) => order[a.status] - order[b.status]);
  const count = (s: string) => checks.filter((c) => c.status === s).length;
  return (
    <div>
      <fieldset className="mb-3 flex flex-wrap gap-2">
        <legend className="sr-only">Filter {label}</legend>
        {(["all", "fail", "warn", "pass"] as const).map((f) => (
          <button
            key={f}
            type="button"
            aria-pressed={filter === f}
            onClick={() => setFilter(f)}
            className={`rounded-full px-3 py-1 text-sm ring-1 ring-inset focus-visible:outline-2 focus-visible:outline-indigo-700 ${
              filter === f
                ? "bg-indigo-700 text-white ring-indigo-700"
                : "bg-white text-slate-800 ring-slate-300 hover:bg-slate-50"
            }`}
          >
            {f === "all" ? `All ${checks.length}` : `${STATUS_WORDS[f]} ${count(f)}`}
          </button>
        ))}
      </fieldset>
      <ul
        className="divide-y divide-slate-100 rounded-lg border border-slate-200 bg-white"
        aria-label={label}
        data-testid="checklist"
      >
        {shown.map((c) => {
          const words = wordsOf(c);
          return (
            <li key={c.id} className="flex gap-3 p-3" data-status={c.status} data-check={c.id}>
              <span
                aria-hidden="true"
                className={`mt-0.5 flex size-6 shrink-0 items-center justify-center rounded-full text-sm font-bold ${ICON_STYLE[c.status]}`}
              >
                {ICON[c.status]}
              </span>
              <div className="min-w-0 flex-1">
                <div className="flex flex-wrap items-center gap-2">
                  <h4 className="text-sm font-semibold text-slate-900">{words.title}</h4>
                  <span className="text-xs text-slate-700">{STATUS_WORDS[c.status]}</span>
                  {c.status !== "pass" ? (
                    <span
                      className={`inline-flex items-center rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset ${SEVERITY_STYLE[words.severity]}`}
                    >
                      {words.severity}
                    </span>
                  ) : null}
                  <code className="text-xs text-slate-600">{c.id}</code>
                </div>
                <p className="mt-1 text-sm text-slate-900">{c.message}</p>
                {words.meaning ? (
                  <details className="mt-1">
                    <summary className="cursor-pointer text-xs text-slate-700">
                      {c.status === "pass" ? "What it checks" : "What it means and how to fix it"}
                    </summary>
                    <p className="mt-1 text-sm text-slate-700">{words.meaning}</p>
                    {c.status !== "pass" && words.fix ? (
                      <p className="mt-1 text-sm text-slate-900">
                        <strong>Fix: </strong>
                        {words.fix}
                      </p>
                    ) : null}
                  </details>
                ) : null}
                {c.evidence.length > 0 ? (
                  <details className="mt-1">
                    <summary className="cursor-pointer text-xs text-slate-700">
                      Evidence ({c.evidence.length})
                    </summary>
                    <ul className="mt-1 space-y-1">
                      {c.evidence.map((e, i) => (
                        // biome-ignore lint/suspicious/noArrayIndexKey: evidence lines have no id and never change order
                        <li key={`${c.id}-${i}`} className="break-all font-mono text-xs text-slate-700">
                          {e}
                        </li>
                      ))}
                    </ul>
                  </details>
                ) : null}
              </div>
            </li>
          );
        })}
      </ul>
    </div>
  );
}

export function ScoreCard({ label, score, note }: { label: string; score: number | string; note?: string }) {
  const n = typeof score === "number" ? score : Number.NaN;
  const tone = Number.isNaN(n)
    ? "text-slate-900"
    : n >= 90
      ? "text-emerald-800"
      : n >= 50
        ? "text-amber-900"
        : "text-red-800";
  return (
    <div className="rounded-lg border border-slate-200 bg-white p-4">
      <p className="text-sm text-slate-600">{label}</p>
      <p className={`mt-1 text-3xl font-semibold ${tone}`}>{score}</p>
      {note ? <p className="mt-1 text-xs text-slate-600">{note}</p> : null}
    </div>
  );
}
