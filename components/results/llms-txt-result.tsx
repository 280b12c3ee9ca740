"use client";

import { useMemo } from "react";
import { CopyButton } from "@/components/ui/copy-button";
import type { LlmsTxtResult } from "@/lib/tools/llms-txt/schema";

export function LlmsTxtResultView({ result }: { result: LlmsTxtResult }) {
  const href = useMemo(
    () => `data:text/markdown;charset=utf-8,${encodeURIComponent(result.llmsTxt)}`,
    [result.llmsTxt],
  );
  return (
    <div className="space-y-4">
      <p className="text-sm text-slate-700">
        Built from {result.pagesCrawled} pages of{" "}
        <span className="break-all font-mono">{result.siteUrl}</span> (found via {result.discovery});{" "}
        {result.pagesUsed.length} listed. Serve it at <code>/llms.txt</code>.
      </p>
      {result.warnings.length > 0 ? (
        <ul className="list-disc space-y-1 rounded-md bg-amber-50 p-3 pl-8 text-sm text-amber-950">
          {result.warnings.map((w) => (
            <li key={w}>{w}</li>
          ))}
        </ul>
      ) : null}
      <div className="rounded-lg border border-slate-200 bg-white p-3">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <h3 className="text-base font-semibold text-slate-900">llms.txt preview</h3>
          <div className="flex gap-2">
            <CopyButton text={result.llmsTxt} label="Copy" />
            <a className="btn-secondary" href={href} download="llms.txt">
              Download
            </a>
          </div>
        </div>
        <pre className="mt-2 max-h-[32rem] overflow-auto whitespace-pre-wrap rounded bg-slate-900 p-3 text-xs text-slate-100">
          {result.llmsTxt}
        </pre>
      </div>
    </div>
  );
}
