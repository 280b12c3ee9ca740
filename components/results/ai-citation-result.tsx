"use client";

import type { AiCitationCheckResult } from "@/lib/ai-visibility/schemas";
import { EngineCard } from "./engine-card";

/** Each engine failed is refunded its share: 100 credits. */
const ENGINE_CREDITS = 100;

export function AiCitationResultView({ result }: { result: AiCitationCheckResult }) {
  const { summary } = result;
  const list = (names: readonly string[]) => (names.length ? names.join(", ") : "none");
  return (
    <div className="space-y-4">
      <div className="rounded-lg border border-slate-200 bg-white p-4 text-sm text-slate-800">
        <p>
          <span className="text-2xl font-semibold text-slate-900" data-testid="visibility-score">
            {summary.visibilityScore}
          </span>
          <span className="text-slate-600"> / 100 visibility for </span>
          <span className="font-mono">{result.domain}</span>
        </p>
        <p className="mt-2">
          Cited by {list(summary.citedIn)} · mentioned by {list(summary.mentionedIn)} · not found in{" "}
          {list(summary.notFoundIn)} · citation rate {Math.round(summary.citationRate * 100)}%
        </p>
        {summary.competitors.length > 0 ? (
          <ul className="mt-2 list-disc pl-5">
            {summary.competitors.map((c) => (
              <li key={c.domain}>
                <span className="font-mono">{c.domain}</span>: cited by {list(c.citedIn)} (
                {Math.round(c.citationRate * 100)}%)
              </li>
            ))}
          </ul>
        ) : null}
        <p className="mt-2 text-xs text-slate-600">Sentiment: {result.sentimentMethod}</p>
      </div>
      <div className="grid gap-4 lg:grid-cols-2">
        {result.results.map((entry) => (
          <EngineCard
            key={entry.engine}
            entry={entry}
            brandNames={result.brandNames}
            refund={entry.error ? ENGINE_CREDITS : undefined}
          />
        ))}
      </div>
    </div>
  );
}
