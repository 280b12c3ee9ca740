"use client";

import { CopyButton } from "@/components/ui/copy-button";
import type { FaqGeneratorResult } from "@/lib/tools/faq-generator/schema";

export function FaqResultView({ result }: { result: FaqGeneratorResult }) {
  return (
    <div className="space-y-4">
      <p className="text-sm text-slate-700">
        {result.count} question and answer pairs from{" "}
        <span className="break-all font-mono">{result.finalUrl}</span>
        {result.method?.kind === "generated"
          ? `, written by ${result.method.engine} from the page's own sentences (each answer lists the sentences it rests on${result.method.unsupportedDropped ? `; ${result.method.unsupportedDropped} answers the page could not support were left out` : ""}).`
          : ", in the page's own words."}
      </p>
      {result.method?.note ? <p className="text-sm text-amber-900">{result.method.note}</p> : null}
      <dl className="divide-y divide-slate-100 rounded-lg border border-slate-200 bg-white">
        {result.pairs.map((p, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: pairs have no id and never change order
          <div key={`${p.question}-${i}`} className="p-3">
            <dt className="font-medium text-slate-900">{p.question}</dt>
            <dd className="mt-1 text-sm text-slate-700">{p.answer}</dd>
            {p.supportingSentences?.length ? (
              <dd className="mt-1 text-xs text-slate-600">
                Rests on:
                <ul className="mt-0.5 list-disc pl-5">
                  {p.supportingSentences.map((s) => (
                    <li key={s}>“{s}”</li>
                  ))}
                </ul>
              </dd>
            ) : (
              <dd className="mt-1 text-xs text-slate-600">Found in: {p.source}</dd>
            )}
          </div>
        ))}
      </dl>
      <div className="rounded-lg border border-slate-200 bg-white p-3">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <h3 className="text-base font-semibold text-slate-900">FAQPage JSON-LD</h3>
          <CopyButton text={result.html} label="Copy JSON-LD" />
        </div>
        <p className="mt-1 text-sm text-slate-600">Paste it into the page's &lt;head&gt; or &lt;body&gt;.</p>
        <pre className="mt-2 max-h-96 overflow-auto rounded bg-slate-900 p-3 text-xs text-slate-100">
          {result.html}
        </pre>
      </div>
    </div>
  );
}
