/** A line of a graph file that is not in Common Crawl's published format. */
export class WebgraphFormatError extends Error {
  constructor(
    readonly file: string,
    readonly line: number,
    detail: string,
  ) {
    super(`${file}:${line}: ${detail}`);
    this.name = "WebgraphFormatError";
  }
}

const ID = /^\d{1,15}$/;
// Reversed host names: labels of letters, digits, hyphens and underscores, joined by dots.
const REV_HOST = /^[a-z0-9_-]+(\.[a-z0-9_-]+)*$/i;

export interface VertexRow {
  id: number;
  revHost: string;
}

/** `id<TAB>rev_host` (host level) or `id<TAB>rev_domain<TAB>n_hosts` (domain level). */
export function parseVertex(line: string): VertexRow | string {
  const [id, revHost] = line.split("\t", 3);
  if (!id || !ID.test(id)) return "vertex id is not a whole number";
  if (!revHost || revHost.length > 253 || !REV_HOST.test(revHost)) return "not a reversed host name";
  return { id: Number(id), revHost: revHost.toLowerCase() };
}

/** `from_id<TAB>to_id`. Returns the pair, or an error string. */
export function parseEdge(line: string): [number, number] | string {
  const tab = line.indexOf("\t");
  if (tab < 0) return "expected from_id<TAB>to_id";
  const from = line.slice(0, tab);
  const to = line.slice(tab + 1);
  if (!ID.test(from) || !ID.test(to)) return "edge ids are not whole numbers";
  return [Number(from), Number(to)];
}

export interface RankRow {
  revHost: string;
  harmonicPos: number;
  harmonicVal: number;
  pagerankPos: number;
  pagerankVal: number;
  hostCount: number | null;
}

/**
 * Column positions of a ranks file. The published files open with a header such as
 * `#harmonicc_pos #harmonicc_val #pr_pos #pr_val #host_rev` (tab-separated), domain files add `#n_hosts`.
 */
export interface RankColumns {
  harmonicPos: number;
  harmonicVal: number;
  pagerankPos: number;
  pagerankVal: number;
  revHost: number;
  hostCount: number | null;
}

export const DEFAULT_RANK_COLUMNS: RankColumns = {
  harmonicPos: 0,
  harmonicVal: 1,
  pagerankPos: 2,
  pagerankVal: 3,
  revHost: 4,
  hostCount: 5,
};

export function parseRankHeader(line: string): RankColumns | string {
  const names = line.split("\t").map((n) => n.trim().replace(/^#/, "").toLowerCase());
  const at = (...options: string[]) => names.findIndex((n) => options.includes(n));
  const columns = {
    harmonicPos: at("harmonicc_pos", "hc_pos"),
    harmonicVal: at("harmonicc_val", "hc_val"),
    pagerankPos: at("pr_pos"),
    pagerankVal: at("pr_val"),
    revHost: at("host_rev", "domain_rev"),
  };
  const missing = Object.entries(columns).filter(([, i]) => i < 0);
  if (missing.length > 0) return `ranks header lacks ${missing.map(([k]) => k).join(", ")}`;
  const hosts = at("n_hosts");
  return { ...columns, hostCount: hosts < 0 ? null : hosts };
}

export function parseRank(line: string, columns: RankColumns): RankRow | string {
  const cells = line.split("\t");
  const int = (i: number) => (ID.test(cells[i] ?? "") ? Number(cells[i]) : Number.NaN);
  const float = (i: number) => Number.parseFloat(cells[i] ?? "");
  const revHost = cells[columns.revHost]?.replace(/^'|'$/g, "");
  const row = {
    revHost: revHost?.toLowerCase() ?? "",
    harmonicPos: int(columns.harmonicPos),
    harmonicVal: float(columns.harmonicVal),
    pagerankPos: int(columns.pagerankPos),
    pagerankVal: float(columns.pagerankVal),
    hostCount:
      columns.hostCount === null || cells[columns.hostCount] === undefined ? null : int(columns.hostCount),
  };
  if (!REV_HOST.test(row.revHost)) return "not a reversed host name";
  if (!(row.harmonicPos >= 1 && row.pagerankPos >= 1)) return "rank positions must be whole numbers from 1";
  if (!Number.isFinite(row.harmonicVal) || !Number.isFinite(row.pagerankVal))
    return "rank values are not numbers";
  if (Number.isNaN(row.hostCount)) return "n_hosts is not a whole number";
  return row;
}

/** `www.Example.com` → `com.example`: the graph drops a leading `www.` and reverses the labels. */
export function toRevHost(host: string): string {
  return host
    .toLowerCase()
    .replace(/\.$/, "")
    .replace(/^www\./, "")
    .split(".")
    .reverse()
    .join(".");
}

export function fromRevHost(revHost: string): string {
  return revHost.split(".").reverse().join(".");
}
