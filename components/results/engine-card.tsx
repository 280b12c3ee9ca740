"use client";

import { safeHref, splitOnBrand } from "@/lib/ai-visibility/highlight";
import type { EngineResult } from "@/lib/ai-visibility/schemas";

const SENTIMENT_STYLE: Record<EngineResult["sentiment"], string> = {
  positive: "bg-emerald-50 text-emerald-900",
  neutral: "bg-slate-100 text-slate-800",
  negative: "bg-red-50 text-red-900",
};

function SourceList({ list }: { list: EngineResult["sources"] }) {
  return (
    <ul className="mt-1 space-y-1 text-sm">
      {list.map((s) => (
        <li key={s.url}>
          <span className="text-slate-900">{s.title || s.domain || "Untitled"}</span>{" "}
          <span className="text-slate-600">· </span>
          <Url url={s.url} />
        </li>
      ))}
    </ul>
  );
}

function Url({ url }: { url: string }) {
  const href = safeHref(url);
  return href ? (
    <a className="link break-all" href={href} target="_blank" rel="noopener noreferrer nofollow">
      {url}
    </a>
  ) : (
    <span className="break-all">{url}</span>
  );
}

/** The answer as text with the brand's names marked; every character is rendered as text, never as HTML. */
function Answer({ text, brandNames }: { text: string; brandNames: readonly string[] }) {
  return (
    <p className="whitespace-pre-wrap text-sm text-slate-800" data-testid="engine-answer">
      {splitOnBrand(text, brandNames).map((part, i) =>
        part.brand ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one fixed text, never reordered
          <mark key={i} className="rounded bg-yellow-100 px-0.5 text-slate-900">
            {part.text}
          </mark>
        ) : (
          // biome-ignore lint/suspicious/noArrayIndexKey: as above
          <span key={i}>{part.text}</span>
        ),
      )}
    </p>
  );
}

/**
 * One engine's answer: cited URLs, mention position, sentiment and how it was judged, the answer, the sources it
 * cites, the results it read without citing and its searches; or its failure.
 */
export function EngineCard({
  entry,
  brandNames,
  refund,
}: {
  entry: EngineResult;
  brandNames: readonly string[];
  /** Credits given back for this engine when it failed. */
  refund?: number;
}) {
  // Results stored before retrieved results and searches were kept have neither.
  const cited = new Set(entry.sources.map((s) => s.url));
  const readNotCited = (entry.retrieved ?? []).filter((s) => !cited.has(s.url));
  const queries = entry.queries ?? [];
  return (
    <section
      className="space-y-3 rounded-lg border border-slate-200 bg-white p-4 shadow-sm"
      aria-label={`${entry.engine} answer`}
      data-testid="engine-card"
    >
      <header className="flex flex-wrap items-baseline justify-between gap-2">
        <h3 className="text-base font-semibold text-slate-900">{entry.engine}</h3>
        <span className="font-mono text-xs text-slate-600">{entry.model}</span>
      </header>
      {entry.error ? (
        <div role="alert" className="rounded-md bg-red-50 p-3 text-sm text-red-900">
          <p className="font-semibold">
            {entry.engine} did not answer ({entry.error.code}).
          </p>
          <p className="mt-1">{entry.error.message}</p>
          {refund ? <p className="mt-1">Its {refund} credits were refunded.</p> : null}
        </div>
      ) : (
        <>
          <dl className="grid grid-cols-1 gap-2 text-sm sm:grid-cols-3">
            <div>
              <dt className="text-slate-600">Cited</dt>
              <dd className="font-medium text-slate-900">{entry.cited ? "Yes" : "No"}</dd>
            </div>
            <div>
              <dt className="text-slate-600">Mention position</dt>
              <dd className="font-medium text-slate-900">
                {entry.mentionPosition > 0 ? `#${entry.mentionPosition}` : "Not mentioned"}
              </dd>
            </div>
            <div>
              <dt className="text-slate-600">Sentiment</dt>
              <dd>
                <span
                  className={`rounded px-2 py-0.5 text-xs font-medium ${SENTIMENT_STYLE[entry.sentiment]}`}
                >
                  {entry.sentimentDetail?.label === "mixed" ? "mixed (counts as neutral)" : entry.sentiment}
                </span>
                {entry.sentimentDetail ? (
                  <span className="ml-2 text-xs text-slate-600">
                    {entry.sentimentDetail.method === "model"
                      ? `judged by ${entry.sentimentDetail.model ?? "a model"}`
                      : "judged by the lexicon"}
                  </span>
                ) : null}
              </dd>
            </div>
          </dl>
          {entry.citedUrls.length > 0 ? (
            <div>
              <h4 className="text-sm font-medium text-slate-900">Cited URLs</h4>
              <ul className="mt-1 list-disc pl-5 text-sm">
                {entry.citedUrls.map((u) => (
                  <li key={u}>
                    <Url url={u} />
                  </li>
                ))}
              </ul>
            </div>
          ) : null}
          <div>
            <h4 className="text-sm font-medium text-slate-900">Answer</h4>
            <Answer text={entry.answer} brandNames={brandNames} />
          </div>
          {entry.sources.length > 0 ? (
            <details>
              <summary className="cursor-pointer text-sm font-medium text-slate-900">
                Cited sources ({entry.sources.length})
              </summary>
              <SourceList list={entry.sources} />
            </details>
          ) : null}
          {readNotCited.length > 0 ? (
            <details>
              <summary className="cursor-pointer text-sm font-medium text-slate-900">
                Read but not cited ({readNotCited.length})
              </summary>
              <SourceList list={readNotCited} />
            </details>
          ) : null}
          {queries.length > 0 ? (
            <div>
              <h4 className="text-sm font-medium text-slate-900">Searches the engine ran</h4>
              <ul className="mt-1 list-disc pl-5 text-sm text-slate-800">
                {queries.map((q) => (
                  <li key={q}>{q}</li>
                ))}
              </ul>
            </div>
          ) : null}
        </>
      )}
    </section>
  );
}
