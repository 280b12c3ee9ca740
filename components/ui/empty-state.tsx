import type { ReactNode } from "react";

/** What a card shows when it has nothing to list yet; one look on every page. */
export function EmptyState({ children }: { children: ReactNode }) {
  return <p className="text-sm text-slate-700">{children}</p>;
}
