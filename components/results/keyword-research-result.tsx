"use client";

import type { KeywordResearchResult } from "@/lib/keywords/schema";
import { KeywordMetricsTable } from "./keyword-metrics-table";

type FromUrl = Extract<KeywordResearchResult, { mode: "url" }>;

function Topics({ result }: { result: FromUrl }) {
  if (result.topics.length === 0) return <p className="text-sm text-slate-700">No topics were found.</p>;
  return (
    <ol className="space-y-3">
      {result.topics.map((t) => (
        <li key={t.topic} className="rounded-lg border border-slate-200 bg-white p-3">
          <h4 className="text-base font-semibold text-slate-900">{t.topic}</h4>
          <p className="text-sm text-slate-700">
            Intent: <strong>{t.intent}</strong> ({t.intentReason})
          </p>
          <p className="text-sm text-slate-700">Keyphrases: {t.keyphrases.join(", ")}</p>
          {t.pages.length > 0 ? (
            <div className="mt-1 text-sm">
              <span className="text-slate-700">Pages:</span>
              <ul className="list-disc pl-6">
                {t.pages.map((p) => (
                  <li key={p.url} className="break-all">
                    {p.title ? `${p.title} — ` : ""}
                    <span className="font-mono text-xs">{p.url}</span>
                  </li>
                ))}
              </ul>
            </div>
          ) : null}
          {t.questions.length > 0 ? (
            <div className="mt-1 text-sm">
              <span className="text-slate-700">Questions on the site:</span>
              <ul className="list-disc pl-6">
                {t.questions.map((q) => (
                  <li key={`${q.url} ${q.question}`}>{q.question}</li>
                ))}
              </ul>
            </div>
          ) : null}
        </li>
      ))}
    </ol>
  );
}

export function KeywordResearchResultView({ result }: { result: KeywordResearchResult }) {
  if (result.mode === "keywords") {
    return (
      <div className="space-y-4">
        <p className="text-sm text-slate-700">Seeds: {result.seeds.join(", ")}. Source: DataForSEO.</p>
        <h3 className="text-base font-semibold text-slate-900">Seed keywords</h3>
        <KeywordMetricsTable rows={result.metrics} empty="No figures for the seeds." />
        <h3 className="text-base font-semibold text-slate-900">Related keyword ideas</h3>
        <KeywordMetricsTable rows={result.ideas} empty="No related ideas." />
      </div>
    );
  }
  return (
    <div className="space-y-4">
      <p className="text-sm text-slate-700">
        {result.pagesCrawled} pages of <span className="break-all font-mono">{result.siteUrl}</span> read.
        Every topic, keyphrase and question below was found on the site (rarity weighed against{" "}
        {result.background}).
      </p>
      <h3 className="text-base font-semibold text-slate-900">Topics</h3>
      <Topics result={result} />
      <h3 className="text-base font-semibold text-slate-900">Search figures</h3>
      {result.metrics === null ? (
        <p className="text-sm text-slate-700">
          No keyword data provider is configured on this server, so there are no search figures.
        </p>
      ) : (
        <>
          <p className="text-sm text-slate-700">Source: DataForSEO.</p>
          <KeywordMetricsTable rows={result.metrics} empty="The provider has no figures for these phrases." />
        </>
      )}
    </div>
  );
}
