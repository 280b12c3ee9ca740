import { sql } from "drizzle-orm";
import { getDomain } from "tldts";
import type { DbOrTx } from "@/lib/db/client";
import type { WebgraphLevel } from "@/lib/db/schema";
import { scoreAuthority } from "./authority";
import { rowsOf } from "./import-webgraph";
import { fromRevHost, toRevHost } from "./parse";

interface SnapshotRef {
  name: string;
  takenOn: string;
  levels: { level: WebgraphLevel; id: number; rankedCount: number }[];
}

interface GraphRank {
  /** 1 = the most central vertex of the snapshot. */
  harmonicCentralityRank: number;
  pageRankRank: number;
  /** 0–100; see scoreAuthority for the formula. */
  authorityScore: number;
  /** The graph level the rank was read from: the registered domain's when imported, else the host's. */
  level: WebgraphLevel;
}

interface TargetFigures {
  snapshot: string;
  takenOn: string;
  /** The target (or its registered domain) is a vertex of this snapshot. */
  found: boolean;
  /** Other registered domains linking to the target's domain (domain-level graph); null when not imported. */
  referringDomains: number | null;
  /** Other hosts, outside the target's own domain, linking to the target host; null when not imported. */
  referringHosts: number | null;
  rank: GraphRank | null;
}

interface ReferringDomain {
  domain: string;
  harmonicCentralityRank: number | null;
  pageRankRank: number | null;
  authorityScore: number | null;
}

export interface WebgraphOverview extends TargetFigures {
  topReferringDomains: ReferringDomain[];
  /** Oldest first; present when asked for. */
  history?: TargetFigures[];
}

const TOP_REFERRING = 10;

/** Imported, complete snapshots grouped by release, newest first. */
async function listWebgraphSnapshots(db: DbOrTx): Promise<SnapshotRef[]> {
  const rows = rowsOf<{
    id: number;
    name: string;
    taken_on: string;
    level: WebgraphLevel;
    ranked_count: number | string;
  }>(
    await db.execute(
      sql`select id, name, taken_on::text as taken_on, level, ranked_count from webgraph_snapshots
          where status = 'ready' order by taken_on desc, name, level`,
    ),
  );
  const byName = new Map<string, SnapshotRef>();
  for (const r of rows) {
    const ref = byName.get(r.name) ?? { name: r.name, takenOn: r.taken_on, levels: [] };
    ref.levels.push({ level: r.level, id: r.id, rankedCount: Number(r.ranked_count) });
    byName.set(r.name, ref);
  }
  return [...byName.values()];
}

/** Link-graph figures for a hostname from the newest snapshot, and per snapshot when history is asked for. */
export async function backlinksOverview(
  db: DbOrTx,
  input: { target: string; includeHistory?: boolean },
): Promise<WebgraphOverview | null> {
  const snapshots = await listWebgraphSnapshots(db);
  const [latest] = snapshots;
  if (!latest) return null;
  const figures = await measureTarget(db, latest, input.target);
  const domainLevel = latest.levels.find((l) => l.level === "domain");
  const topReferringDomains =
    figures.found && domainLevel ? await listTopReferringDomains(db, domainLevel, input.target) : [];
  const overview: WebgraphOverview = { ...figures, topReferringDomains };
  if (input.includeHistory) {
    const history: TargetFigures[] = [];
    for (const snap of [...snapshots].reverse()) {
      history.push(snap === latest ? figures : await measureTarget(db, snap, input.target));
    }
    overview.history = history;
  }
  return overview;
}

function revKeys(target: string) {
  const host = target.toLowerCase();
  return { host: toRevHost(host), domain: toRevHost(getDomain(host) ?? host) };
}

async function measureTarget(db: DbOrTx, snap: SnapshotRef, target: string): Promise<TargetFigures> {
  const keys = revKeys(target);
  const out: TargetFigures = {
    snapshot: snap.name,
    takenOn: snap.takenOn,
    found: false,
    referringDomains: null,
    referringHosts: null,
    rank: null,
  };
  for (const level of snap.levels) {
    const rev = level.level === "domain" ? keys.domain : keys.host;
    const [row] = rowsOf<{
      vertex_id: number | string | null;
      hp: number | string | null;
      pp: number | string | null;
      linking: number | string | null;
    }>(
      await db.execute(sql`
        select v.vertex_id, r.harmonic_pos as hp, r.pagerank_pos as pp,
          (select count(*) from webgraph_edges e
             join webgraph_vertices s on s.snapshot_id = e.snapshot_id and s.vertex_id = e.from_id
            where e.snapshot_id = ${level.id} and e.to_id = v.vertex_id
              and s.rev_host <> ${keys.domain} and s.rev_host not like ${`${likeEscape(keys.domain)}.%`}) as linking
        from (select ${rev}::text as rev_host) q
        left join webgraph_vertices v on v.snapshot_id = ${level.id} and v.rev_host = q.rev_host
        left join webgraph_ranks r on r.snapshot_id = ${level.id} and r.rev_host = q.rev_host`),
    );
    if (row?.vertex_id == null) {
      if (level.level === "domain") out.referringDomains = 0;
      else out.referringHosts = 0;
      continue;
    }
    out.found = true;
    const linking = Number(row.linking ?? 0);
    if (level.level === "domain") out.referringDomains = linking;
    else out.referringHosts = linking;
    // The domain's rank speaks for the whole site; the host's only when no domain graph was imported.
    if (row.hp != null && row.pp != null && (level.level === "domain" || out.rank === null)) {
      const hp = Number(row.hp);
      const pp = Number(row.pp);
      out.rank = {
        harmonicCentralityRank: hp,
        pageRankRank: pp,
        authorityScore: scoreAuthority(hp, pp, level.rankedCount),
        level: level.level,
      };
    }
  }
  return out;
}

async function listTopReferringDomains(
  db: DbOrTx,
  level: SnapshotRef["levels"][number],
  target: string,
): Promise<ReferringDomain[]> {
  const rev = revKeys(target).domain;
  const rows = rowsOf<{ rev_host: string; hp: number | string | null; pp: number | string | null }>(
    await db.execute(sql`
      select s.rev_host, r.harmonic_pos as hp, r.pagerank_pos as pp
      from webgraph_vertices t
      join webgraph_edges e on e.snapshot_id = t.snapshot_id and e.to_id = t.vertex_id
      join webgraph_vertices s on s.snapshot_id = e.snapshot_id and s.vertex_id = e.from_id
      left join webgraph_ranks r on r.snapshot_id = s.snapshot_id and r.rev_host = s.rev_host
      where t.snapshot_id = ${level.id} and t.rev_host = ${rev} and s.rev_host <> ${rev}
      order by r.harmonic_pos asc nulls last, s.rev_host
      limit ${TOP_REFERRING}`),
  );
  return rows.map((r) => {
    const hp = r.hp == null ? null : Number(r.hp);
    const pp = r.pp == null ? null : Number(r.pp);
    return {
      domain: fromRevHost(r.rev_host),
      harmonicCentralityRank: hp,
      pageRankRank: pp,
      authorityScore: hp !== null && pp !== null ? scoreAuthority(hp, pp, level.rankedCount) : null,
    };
  });
}

interface DomainAuthority {
  domain: string;
  found: boolean;
  authorityScore: number | null;
  harmonicCentralityRank: number | null;
  pageRankRank: number | null;
  referringDomains: number | null;
}

export interface DomainAuthorityResult {
  snapshot: { name: string; takenOn: string; level: WebgraphLevel } | null;
  domains: DomainAuthority[];
}

/**
 * Authority, ranks and referring-domain counts of up to 100 registered domains, from the newest snapshot
 * (its domain-level graph when imported, else its host-level one) in three set-based queries.
 */
export async function domainAuthority(
  db: DbOrTx,
  input: { domains: string[] },
): Promise<DomainAuthorityResult> {
  if (input.domains.length > 100) throw new RangeError("at most 100 domains");
  const [latest] = await listWebgraphSnapshots(db);
  const level = latest?.levels.find((l) => l.level === "domain") ?? latest?.levels[0];
  if (!latest || !level) {
    return {
      snapshot: null,
      domains: input.domains.map((domain) => ({
        domain,
        found: false,
        authorityScore: null,
        harmonicCentralityRank: null,
        pageRankRank: null,
        referringDomains: null,
      })),
    };
  }
  const revOf = (d: string) => (level.level === "domain" ? revKeys(d).domain : revKeys(d).host);
  const revs = [...new Set(input.domains.map(revOf))];
  const rows = rowsOf<{
    rev_host: string;
    vertex_id: number | string | null;
    hp: number | string | null;
    pp: number | string | null;
    linking: number | string | null;
  }>(
    await db.execute(sql`
      with q as (select value as rev_host from json_array_elements_text(${JSON.stringify(revs)}::json))
      select q.rev_host, v.vertex_id, r.harmonic_pos as hp, r.pagerank_pos as pp, v.in_degree as linking
      from q
      left join webgraph_vertices v on v.snapshot_id = ${level.id} and v.rev_host = q.rev_host
      left join webgraph_ranks r on r.snapshot_id = ${level.id} and r.rev_host = q.rev_host`),
  );
  const byRev = new Map(rows.map((r) => [r.rev_host, r]));
  return {
    snapshot: { name: latest.name, takenOn: latest.takenOn, level: level.level },
    domains: input.domains.map((domain) => {
      const r = byRev.get(revOf(domain));
      const found = r?.vertex_id != null;
      const hp = r?.hp == null ? null : Number(r.hp);
      const pp = r?.pp == null ? null : Number(r.pp);
      return {
        domain,
        found,
        authorityScore: hp !== null && pp !== null ? scoreAuthority(hp, pp, level.rankedCount) : null,
        harmonicCentralityRank: hp,
        pageRankRank: pp,
        referringDomains: found ? Number(r?.linking ?? 0) : 0,
      };
    }),
  };
}

function likeEscape(value: string): string {
  return value.replace(/[\\%_]/g, "\\$&");
}
