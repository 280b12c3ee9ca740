// Compares two results of the same audit: which issues are new, which were fixed, which are still open, and
// how the scores moved. Pure (no I/O), so the dashboard's "Compare with the previous run" and scheduled
// audits' history use the same rules.

export interface ComparableCheck {
  id: string;
  status: "pass" | "warn" | "fail";
  title?: string;
  severity?: string;
  message?: string;
}

/** What a result is compared by: named scores (0–100) and its checks. */
export interface ResultSnapshot {
  scores: Record<string, number>;
  checks: readonly ComparableCheck[];
}

export interface IssueChange {
  id: string;
  title: string;
  severity: string | null;
  status: "pass" | "warn" | "fail";
  /** The status in the earlier run; null when the check was not run then. */
  previousStatus: "pass" | "warn" | "fail" | null;
  message: string;
}

export interface ResultComparison {
  /** Did not pass now, and passed (or was absent) before. */
  new: IssueChange[];
  /** Did not pass before, and passes now. */
  fixed: IssueChange[];
  /** Did not pass in either run; `worsened` when a warning became a failure. */
  open: (IssueChange & { worsened: boolean })[];
  /** Did not pass before and was not run now (the page changed shape, a check was retired). */
  gone: IssueChange[];
  /** Each score present in both runs: now minus before. */
  scoreDelta: Record<string, number>;
  /** The headline score's change (the first score of the snapshot), or null when either run lacks it. */
  headlineDelta: number | null;
}

const RANK = { pass: 0, warn: 1, fail: 2 } as const;

function change(now: ComparableCheck | undefined, before: ComparableCheck | undefined): IssueChange {
  const c = (now ?? before)!;
  return {
    id: c.id,
    title: c.title ?? c.id,
    severity: c.severity ?? null,
    status: now?.status ?? before!.status,
    previousStatus: before?.status ?? null,
    message: c.message ?? "",
  };
}

function byId(checks: readonly ComparableCheck[]): Map<string, ComparableCheck> {
  const map = new Map<string, ComparableCheck>();
  // A check listed twice (an audit's key checks and issues) counts once, at its worst status.
  for (const c of checks) {
    const seen = map.get(c.id);
    if (!seen || RANK[c.status] > RANK[seen.status]) map.set(c.id, c);
  }
  return map;
}

export function compareResults(previous: ResultSnapshot, current: ResultSnapshot): ResultComparison {
  const before = byId(previous.checks);
  const now = byId(current.checks);
  const out: ResultComparison = {
    new: [],
    fixed: [],
    open: [],
    gone: [],
    scoreDelta: {},
    headlineDelta: null,
  };
  for (const [id, c] of now) {
    const b = before.get(id);
    const failing = c.status !== "pass";
    const wasFailing = b !== undefined && b.status !== "pass";
    if (failing && !wasFailing) out.new.push(change(c, b));
    else if (!failing && wasFailing) out.fixed.push(change(c, b));
    else if (failing && wasFailing)
      out.open.push({ ...change(c, b), worsened: RANK[c.status] > RANK[b.status] });
  }
  for (const [id, b] of before) if (!now.has(id) && b.status !== "pass") out.gone.push(change(undefined, b));
  for (const [name, score] of Object.entries(current.scores)) {
    const old = previous.scores[name];
    if (old !== undefined) out.scoreDelta[name] = score - old;
  }
  const headline = Object.keys(current.scores)[0];
  out.headlineDelta = headline !== undefined ? (out.scoreDelta[headline] ?? null) : null;
  return out;
}

interface AuditLike {
  score: number;
  categories?: readonly { id: string; score: number }[];
  checks: readonly ComparableCheck[];
}

interface SeoAeoGeoLike {
  overall: number;
  seo: { score: number; keyChecks: readonly ComparableCheck[]; issues: readonly ComparableCheck[] };
  aeo: { score: number; checks: readonly ComparableCheck[] };
  geo: { score: number };
}

interface AiAccessLike {
  rows: readonly { operator: string; token: string; purpose: string; status: string }[];
  contradictions: readonly { message: string; token?: string }[];
}

/**
 * The snapshot of a tool's result: the URL audit (score, category scores, checks), the SEO/AEO/GEO audit
 * (overall, seo, aeo, geo and its checks) or the AI access matrix (each row a check: blocked fails, partly
 * warns; each contradiction a failing check). Null for a result of another shape.
 */
export function snapshotOf(tool: string, result: unknown): ResultSnapshot | null {
  if (!result || typeof result !== "object") return null;
  if (tool === "audits") {
    const r = result as AuditLike;
    const scores: Record<string, number> = { score: r.score };
    for (const c of r.categories ?? []) scores[c.id] = c.score;
    return { scores, checks: r.checks };
  }
  if (tool === "seo-aeo-geo-audit") {
    const r = result as SeoAeoGeoLike;
    return {
      scores: { overall: r.overall, seo: r.seo.score, aeo: r.aeo.score, geo: r.geo.score },
      checks: [...r.seo.keyChecks, ...r.seo.issues, ...r.aeo.checks],
    };
  }
  if (tool === "ai-access") {
    const r = result as AiAccessLike;
    const status = (s: string): ComparableCheck["status"] =>
      s === "blocked" ? "fail" : s === "partly" ? "warn" : "pass";
    return {
      scores: {},
      checks: [
        ...r.rows.map((row) => ({
          id: `ai-access.row.${row.token}.${row.purpose}`,
          status: status(row.status),
          title: `${row.operator} ${row.token} (${row.purpose})`,
          message: row.status,
        })),
        // Numbers inside a message (visit counts) change between runs: the id keeps only its words.
        ...r.contradictions.map((c) => ({
          id: `ai-access.contradiction.${c.message.replace(/[\d,.]+/g, "#")}`,
          status: "fail" as const,
          title: c.message,
          message: c.message,
        })),
      ],
    };
  }
  return null;
}
