"use client";

import { ScrollRegion } from "@/components/ui/scroll-region";
import { CATEGORY_TITLES } from "@/lib/analysis/check-catalog";
import type { AuditResult } from "@/lib/tools/shared/audit-schema";
import { AiAccessView } from "./ai-access-result";
import { Checklist, ScoreCard } from "./checklist";
import { RunActions } from "./run-actions";

export function AuditResultView({ result }: { result: AuditResult }) {
  return (
    <div className="space-y-4" data-testid="audit-result">
      <p className="break-all text-sm text-slate-700">
        Audit of <span className="font-mono">{result.finalUrl}</span>
        {result.finalUrl !== result.url ? <> (asked for {result.url})</> : null}
      </p>
      <RunActions tool="audits" input={result.input ?? { url: result.url }} />
      <div className="grid gap-3 sm:grid-cols-4">
        <ScoreCard
          label="Score"
          score={result.score}
          note={result.scoreCappedBy.length ? `Capped by ${result.scoreCappedBy.join(", ")}` : undefined}
        />
        <ScoreCard label="Passed" score={result.summary.pass} />
        <ScoreCard label="Warnings" score={result.summary.warn} />
        <ScoreCard label="Failed" score={result.summary.fail} />
      </div>
      <ScrollRegion label="Scores by category" className="rounded-lg border border-slate-200 bg-white p-3">
        <table className="data-table">
          <caption className="mb-2 text-left text-sm font-semibold text-slate-900">
            Scores by category
          </caption>
          <thead>
            <tr>
              <th scope="col">Category</th>
              <th scope="col" className="text-right">
                Score
              </th>
              <th scope="col" className="text-right">
                Pass
              </th>
              <th scope="col" className="text-right">
                Warn
              </th>
              <th scope="col" className="text-right">
                Fail
              </th>
            </tr>
          </thead>
          <tbody>
            {result.categories.map((c) => (
              <tr key={c.id}>
                <th scope="row" className="font-medium">
                  {CATEGORY_TITLES[c.id] ?? c.id}
                </th>
                <td className="text-right">{c.score}</td>
                <td className="text-right">{c.counts.pass}</td>
                <td className="text-right">{c.counts.warn}</td>
                <td className="text-right">{c.counts.fail}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </ScrollRegion>
      <h3 className="text-base font-semibold text-slate-900">Checklist</h3>
      <Checklist checks={result.checks} label="Audit checks" />
      {result.aiAccess ? (
        <>
          <h3 className="text-base font-semibold text-slate-900">Who may read the site: AI access</h3>
          <AiAccessView access={result.aiAccess} />
        </>
      ) : null}
      <p className="text-sm text-slate-700">
        Security headers grade <strong>{result.security.grade}</strong> ({result.security.score}) · HTTP{" "}
        {result.http.status} in {result.http.elapsedMs} ms · robots.txt {result.robots.mode} ·{" "}
        {result.sitemaps.urlCount} sitemap URLs · llms.txt{" "}
        {result.llmsTxt.found ? (result.llmsTxt.valid ? "valid" : "invalid") : "missing"}
      </p>
    </div>
  );
}
