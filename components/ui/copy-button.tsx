"use client";

import { useState } from "react";

/** Copies `text` to the clipboard and says so to screen readers too. */
export function CopyButton({
  text,
  label = "Copy",
  ariaLabel,
  className = "",
}: {
  text: string;
  label?: string;
  /** A longer name for screen readers when several copy buttons share one visible label. */
  ariaLabel?: string;
  className?: string;
}) {
  const [copied, setCopied] = useState(false);
  return (
    <button
      type="button"
      className={`btn-secondary ${className}`}
      aria-label={ariaLabel ? (copied ? "Copied" : ariaLabel) : undefined}
      onClick={async () => {
        try {
          await navigator.clipboard.writeText(text);
        } catch {
          // Clipboard refused (insecure origin): select-and-copy fallback.
          const area = document.createElement("textarea");
          area.value = text;
          document.body.append(area);
          area.select();
          document.execCommand("copy");
          area.remove();
        }
        setCopied(true);
        setTimeout(() => setCopied(false), 2000);
      }}
    >
      <span aria-live="polite">{copied ? "Copied" : label}</span>
    </button>
  );
}
