"use client";

import { ScrollRegion } from "@/components/ui/scroll-region";
import type { SeoAeoGeoResult } from "@/lib/tools/seo-aeo-geo-audit/schema";
import { AiAccessView } from "./ai-access-result";
import { Checklist, ScoreCard } from "./checklist";
import { RunActions } from "./run-actions";

export function SeoAeoGeoResultView({ result }: { result: SeoAeoGeoResult }) {
  return (
    <div className="space-y-5">
      <p className="break-all text-sm text-slate-700">
        Audit of <span className="font-mono">{result.finalUrl}</span>
      </p>
      <RunActions tool="seo-aeo-geo-audit" input={result.input ?? { url: result.url }} />
      <div className="grid gap-3 sm:grid-cols-4">
        <ScoreCard label="Overall" score={result.overall} note="40% SEO, 30% AEO, 30% GEO" />
        <ScoreCard label="SEO" score={result.seo.score} note={`Security ${result.seo.securityGrade}`} />
        <ScoreCard label="AEO" score={result.aeo.score} />
        <ScoreCard label="GEO" score={result.geo.score} />
      </div>
      <h3 className="text-base font-semibold text-slate-900">SEO: key checks</h3>
      <Checklist checks={result.seo.keyChecks} label="SEO key checks" />
      <h3 className="text-base font-semibold text-slate-900">AEO: answer-engine checks</h3>
      <Checklist checks={result.aeo.checks} label="AEO checks" />
      {result.aeo.questions.length > 0 ? (
        <ScrollRegion
          label="Question headings and their answers"
          className="rounded-lg border border-slate-200 bg-white p-3"
        >
          <table className="data-table">
            <caption className="mb-2 text-left text-sm font-semibold">
              Question headings and their answers
            </caption>
            <thead>
              <tr>
                <th scope="col">Question</th>
                <th scope="col" className="text-right">
                  Answer words
                </th>
                <th scope="col">Concise</th>
              </tr>
            </thead>
            <tbody>
              {result.aeo.questions.map((q, i) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: questions have no id and never change order
                <tr key={`${q.question}-${i}`}>
                  <td>{q.question}</td>
                  <td className="text-right">{q.answerWords}</td>
                  <td>{q.concise ? "yes" : "no"}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollRegion>
      ) : null}
      {result.aiAccess ? (
        <>
          <h3 className="text-base font-semibold text-slate-900">Who may read the site: AI access</h3>
          <AiAccessView access={result.aiAccess} />
        </>
      ) : null}
      <h3 className="text-base font-semibold text-slate-900">GEO: generative-engine signals</h3>
      <ul className="grid gap-3 sm:grid-cols-2">
        {result.geo.signals.map((s) => (
          <li key={s.id} className="rounded-lg border border-slate-200 bg-white p-3">
            <div className="flex items-center justify-between gap-2">
              <p className="font-medium text-slate-900">{s.method}</p>
              <span className="text-lg font-semibold">{s.score}</span>
            </div>
            <p className="mt-1 text-sm text-slate-700">{s.recommendation}</p>
          </li>
        ))}
      </ul>
    </div>
  );
}
