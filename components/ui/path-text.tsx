import { Fragment } from "react";

/**
 * A URL or path that may wrap at its slashes (and at ? & = when it must) instead of overflowing its box or
 * breaking mid-word: a word-break opportunity after each separator.
 */
export function PathText({ value, className }: { value: string; className?: string }) {
  const parts = value.split(/(?<=[/?&=])/);
  return (
    <span className={`[overflow-wrap:anywhere] ${className ?? ""}`}>
      {parts.map((p, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one fixed string, in order
        <Fragment key={i}>
          {p}
          {i < parts.length - 1 ? <wbr /> : null}
        </Fragment>
      ))}
    </span>
  );
}
