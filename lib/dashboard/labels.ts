// Plain words for the dashboard: what people read instead of slugs and codes. Client-safe: the tools' titles
// only, not the catalogue (its schemas would bring zod to the pages that show a ledger or a job).
import { findToolTitle } from "@/lib/tools/titles";

/** The catalogue's title of a tool ("URL audit"), or the name itself for a tool this build no longer has. */
export function toolTitle(name: string): string {
  return findToolTitle(name) ?? name;
}

const PURPOSES: Record<string, string> = {
  training: "AI training",
  ai_search: "AI search",
  ai_user_fetch: "User-triggered fetch",
  search_engine: "Search engine",
  seo: "SEO tool",
  other: "Other",
};

/** A bot purpose as people say it: "AI training", "AI search", "User-triggered fetch". */
export function purposeLabel(purpose: string): string {
  return PURPOSES[purpose] ?? purpose;
}

/** The first 8 characters of a job id: enough to tell jobs apart in a list. */
export const shortJobRef = (jobId: string) => jobId.slice(0, 8);

// "audits job <id>", "Refund: audits job <id> failed (CODE)", "Refund: ai-citation-check job <id>, ChatGPT failed".
const LEDGER_DESCRIPTION =
  /^(Refund: )?([a-z0-9-]+) job [0-9a-f-]{36}(?: failed \(([A-Z_]+)\)|, (.+) failed)?$/;

interface TransactionWords {
  /** "URL audit", "Refund: URL audit", or the ledger's own description (grants, purchases). */
  text: string;
  /** The job the row belongs to, when it belongs to one. */
  jobId: string | null;
  /** The failure code of a refunded job, when the ledger names it. */
  reason?: string;
}

/** A ledger row in plain words: the tool's title instead of its slug and id, the job as a separate link. */
export function describeTransaction(row: { type: string; description: string; jobId: string | null }) {
  const match = LEDGER_DESCRIPTION.exec(row.description);
  const title = match ? findToolTitle(match[2]!) : undefined;
  if (!match || !title) return { text: row.description, jobId: row.jobId } satisfies TransactionWords;
  return {
    text: `${match[1] ? "Refund: " : ""}${title}${match[4] ? ` (${match[4]} failed)` : ""}`,
    jobId: row.jobId,
    ...(match[3] ? { reason: match[3] } : {}),
  } satisfies TransactionWords;
}
