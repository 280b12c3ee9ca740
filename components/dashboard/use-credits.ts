"use client";

import { type QueryClient, useQuery } from "@tanstack/react-query";
import type { CreditAccountView } from "@/lib/credits/credits";

export const CREDITS_KEY = ["credits"] as const;

async function fetchCredits(): Promise<CreditAccountView> {
  const res = await fetch("/api/dashboard/credits", { cache: "no-store" });
  if (!res.ok) throw new Error(`HTTP ${res.status}`);
  return res.json();
}

/**
 * The account's balance and recent transactions, one cache entry for every card that shows them. Pages pass
 * what the server rendered as `initial`; a job that ends invalidates the entry (see JobView).
 */
export function useCredits(initial?: CreditAccountView) {
  return useQuery({ queryKey: CREDITS_KEY, queryFn: fetchCredits, initialData: initial, staleTime: 5_000 });
}

/** After a charge the launcher knows the new balance at once; the rest refreshes from the server. */
export function setCreditBalance(client: QueryClient, balance: number) {
  client.setQueryData<CreditAccountView>(CREDITS_KEY, (old) => (old ? { ...old, balance } : old));
  void client.invalidateQueries({ queryKey: CREDITS_KEY });
}
