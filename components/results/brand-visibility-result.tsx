"use client";

import type { BrandVisibilityResult } from "@/lib/ai-visibility/schemas";
import { EngineCard } from "./engine-card";

export function BrandVisibilityResultView({ result }: { result: BrandVisibilityResult }) {
  return (
    <div className="space-y-4">
      <div className="rounded-lg border border-slate-200 bg-white p-4 text-sm text-slate-800">
        <h3 className="text-base font-semibold text-slate-900">Brands named, in order</h3>
        {result.mentions.length > 0 ? (
          <ol className="mt-1 list-decimal pl-5">
            {result.mentions.map((m) => (
              <li key={`${m.position}-${m.domain}`}>
                {m.text} <span className="font-mono text-slate-600">({m.domain})</span>
                {m.cited ? " · cited" : ""}
              </li>
            ))}
          </ol>
        ) : (
          <p className="mt-1 text-slate-600">The answer names no brand or domain.</p>
        )}
        {result.competitors.length > 0 ? (
          <>
            <h3 className="mt-3 text-base font-semibold text-slate-900">Competitors</h3>
            <ul className="mt-1 list-disc pl-5">
              {result.competitors.map((c) => (
                <li key={c.domain}>
                  <span className="font-mono">{c.domain}</span>:{" "}
                  {c.mentioned ? `mentioned #${c.mentionPosition}` : "not mentioned"}
                  {c.cited ? ", cited" : ""}
                </li>
              ))}
            </ul>
          </>
        ) : null}
        <p className="mt-2 text-xs text-slate-600">Sentiment: {result.sentimentMethod}</p>
      </div>
      <EngineCard entry={result} brandNames={result.brandNames} />
    </div>
  );
}
