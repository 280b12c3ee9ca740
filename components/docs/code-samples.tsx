"use client";

import { useId, useState } from "react";
import { CopyButton } from "@/components/ui/copy-button";

export interface CodeSample {
  language: string;
  code: string;
}

/** One request in several languages: a tab per language, each copyable. */
export function CodeSamples({ samples, title }: { samples: readonly CodeSample[]; title: string }) {
  const [active, setActive] = useState(0);
  const id = useId();
  const current = samples[active] ?? samples[0];
  if (!current) return null;
  return (
    <div className="mt-2 min-w-0">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <div role="tablist" aria-label={`${title}: language`} className="flex flex-wrap gap-1">
          {samples.map((s, i) => (
            <button
              key={s.language}
              type="button"
              role="tab"
              id={`${id}-tab-${i}`}
              aria-selected={i === active}
              aria-controls={`${id}-panel`}
              tabIndex={i === active ? 0 : -1}
              onClick={() => setActive(i)}
              onKeyDown={(e) => {
                if (e.key !== "ArrowRight" && e.key !== "ArrowLeft") return;
                const next = (i + (e.key === "ArrowRight" ? 1 : samples.length - 1)) % samples.length;
                setActive(next);
                document.getElementById(`${id}-tab-${next}`)?.focus();
              }}
              className={`rounded-md px-3 py-1 text-sm font-medium focus-visible:outline-2 focus-visible:outline-indigo-700 ${
                i === active ? "bg-slate-900 text-white" : "bg-slate-100 text-slate-800 hover:bg-slate-200"
              }`}
            >
              {s.language}
            </button>
          ))}
        </div>
        <CopyButton text={current.code} label={`Copy ${current.language}`} />
      </div>
      <pre
        id={`${id}-panel`}
        role="tabpanel"
        aria-labelledby={`${id}-tab-${active}`}
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling code block must be reachable by keyboard
        tabIndex={0}
        className="mt-2 max-w-full overflow-x-auto rounded bg-slate-900 p-3 text-sm text-slate-100 focus-visible:outline-2 focus-visible:outline-indigo-700"
      >
        <code>{current.code}</code>
      </pre>
    </div>
  );
}
