"use client";

import { ScrollRegion } from "@/components/ui/scroll-region";
import type { AiAccess } from "@/lib/analysis/ai-access/schema";
import { RunActions } from "./run-actions";

const PURPOSE = {
  training: "Training crawl",
  "search-index": "Search index",
  "user-fetch": "User-requested fetch",
} as const;
const STATUS_STYLE = {
  allowed: "bg-emerald-50 text-emerald-800 ring-emerald-600/30",
  partly: "bg-amber-50 text-amber-900 ring-amber-600/30",
  blocked: "bg-red-50 text-red-800 ring-red-600/30",
} as const;

/** The AI access matrix: who may read the site, for what, and what decides it; contradictions first. */
export function AiAccessView({ access }: { access: AiAccess }) {
  return (
    <div className="space-y-3" data-testid="ai-access">
      {access.contradictions.length > 0 ? (
        <div className="rounded-lg border border-amber-300 bg-amber-50 p-3">
          <h4 className="text-sm font-semibold text-amber-950">
            Contradictions ({access.contradictions.length})
          </h4>
          <ul className="mt-1 list-disc space-y-1 pl-5 text-sm text-amber-950">
            {access.contradictions.map((c) => (
              <li key={c.message}>{c.message}</li>
            ))}
          </ul>
        </div>
      ) : (
        <p className="text-sm text-slate-700">
          No contradictions between robots.txt, the server and the signals.
        </p>
      )}
      <ScrollRegion
        label="AI access by operator and purpose"
        className="rounded-lg border border-slate-200 bg-white p-3"
      >
        <table className="data-table">
          <caption className="mb-2 text-left text-sm font-semibold text-slate-900">
            AI access by operator and purpose ({access.paths.length} paths checked)
          </caption>
          <thead>
            <tr>
              <th scope="col">Operator</th>
              <th scope="col">Crawler</th>
              <th scope="col">Purpose</th>
              <th scope="col">Access</th>
              <th scope="col">Decided by</th>
            </tr>
          </thead>
          <tbody>
            {access.rows.map((r) => (
              <tr key={`${r.token}-${r.purpose}`}>
                <td>{r.operator}</td>
                <th scope="row" className="font-mono text-xs font-medium">
                  {r.token}
                </th>
                <td>{PURPOSE[r.purpose]}</td>
                <td>
                  <span
                    className={`inline-flex rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset ${STATUS_STYLE[r.status]}`}
                  >
                    {r.status}
                  </span>
                </td>
                <td>
                  <ul className="space-y-0.5 text-xs text-slate-800">
                    {r.by.map((b) => (
                      <li key={b}>{b}</li>
                    ))}
                  </ul>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </ScrollRegion>
      <p className="text-sm text-slate-700">
        llms.txt:{" "}
        {access.llmsTxt.present
          ? access.llmsTxt.valid
            ? "present and valid"
            : "present but not in the llms.txt format"
          : access.llmsTxt.servedAs === "html"
            ? "answered with an HTML page, not a text file"
            : "none"}
        {" · "}Content Signals: {access.signals.contentSignal?.map((s) => s.raw).join(" | ") ?? "none"}
        {" · "}AI usage preferences (Content-Usage):{" "}
        {access.signals.contentUsage
          ? [access.signals.contentUsage.header?.raw, ...access.signals.contentUsage.robots.map((r) => r.raw)]
              .filter(Boolean)
              .join(" | ")
          : "none"}
        {" · "}Text and data mining (TDMRep): {tdmWords(access.signals.tdmrep)}
        {access.tracking.used
          ? ` · compared with the visits tracking recorded in ${access.tracking.days} days`
          : ""}
      </p>
    </div>
  );
}

/** What the TDM Reservation Protocol's declarations say for the page checked, and where it comes from. */
function tdmWords(tdm: AiAccess["signals"]["tdmrep"]): string {
  if (!tdm) return "no declaration";
  const where =
    tdm.source === "header"
      ? "response header"
      : tdm.source === "meta"
        ? "meta tag"
        : "/.well-known/tdmrep.json";
  if (tdm.reservation === 1)
    return `rights reserved for ${tdm.path} (${where})${tdm.policy ? `, licence terms at ${tdm.policy}` : ""}`;
  if (tdm.reservation === 0) return `not reserved for ${tdm.path} (${where})`;
  return tdm.file.present ? `tdmrep.json present, no rule for ${tdm.path}` : "no declaration";
}

export function AiAccessResultView({ result }: { result: AiAccess }) {
  return (
    <div className="space-y-4">
      <p className="break-all text-sm text-slate-700">
        AI access to <span className="font-mono">{result.site}</span>
      </p>
      <RunActions tool="ai-access" input={{ url: result.site }} />
      <AiAccessView access={result} />
    </div>
  );
}
