import type { NewVisit } from "@/lib/db/schema";
import { pageOf, pgArrayLiteral } from "./prepare-visit";
import type { AgentFields } from "./visit-agents";

type Cell = string | number | boolean | null | undefined;

/**
 * The fields a visit shares with the other visits of its kind in a batch, sent once per distinct value: each
 * read as the insert stores it (undefined as null or false).
 */
const PROFILE = {
  domainId: (r: NewVisit): Cell => r.domainId,
  referrer: (r: NewVisit): Cell => r.referrer ?? null,
  botName: (r: NewVisit): Cell => r.botName ?? null,
  /** Not stored with the visit (its agent holds it): the daily bots rollup takes it. */
  botPurpose: (r: NewVisit): Cell => r.botPurpose ?? null,
  isAiBot: (r: NewVisit): Cell => r.isAiBot ?? false,
  verification: (r: NewVisit): Cell => r.verification,
  verificationMethod: (r: NewVisit): Cell => r.verificationMethod ?? null,
  citationEngine: (r: NewVisit): Cell => r.citationEngine ?? null,
};
const PROFILE_FIELDS = Object.keys(PROFILE) as (keyof typeof PROFILE)[];
const PROFILE_READ = Object.values(PROFILE);

/** A profile's agent (visit_agents): stored once, its id looked up when the batch is stored. */
function agentOf(r: NewVisit): AgentFields {
  return {
    userAgent: r.userAgent,
    botPurpose: r.botPurpose ?? null,
    citationReason: r.citationReason ?? null,
    isDemo: r.isDemo ?? false,
  };
}

/** Whether two visits of the same user agent share a profile (and so an agent). */
function sameProfile(a: NewVisit, b: NewVisit): boolean {
  for (const read of PROFILE_READ) if (read(a) !== read(b)) return false;
  return (
    (a.citationReason ?? null) === (b.citationReason ?? null) && (a.isDemo ?? false) === (b.isDemo ?? false)
  );
}

/**
 * The order a batch's visits are sent and inserted in: the visits' primary key's (domain, time, then event key,
 * comparing UTF-16 code units). Unique-key inserts lock in insertion order, so two batches sharing events wait for
 * each other instead of deadlocking as long as every batch uses the same total order; in the key's own order each
 * insert descends the index next to the one before (live traffic appends to its last page), and sorting here (not in
 * SQL) spares Postgres a collation-aware sort of text per batch: it inserts in the order the array gives (by
 * ordinality).
 */
function insertOrder(a: NewVisit, b: NewVisit): number {
  if (a.domainId !== b.domainId) return a.domainId < b.domainId ? -1 : 1;
  const ta = (a.occurredAt as Date).getTime();
  const tb = (b.occurredAt as Date).getTime();
  if (ta !== tb) return ta - tb;
  const ka = a.eventKey as string;
  const kb = b.eventKey as string;
  return ka === kb ? 0 : ka < kb ? -1 : 1;
}

/** The fields of each visit of its own. */
const ROW_FIELDS = ["profile", "occurredAt", "path", "ip", "status", "eventKey"] as const;
const DAY_MS = 86_400_000;

/**
 * What a batch adds to the rollups when every visit it sends is stored, counted while it is encoded: the plain
 * insert (storeVisitBatch) stores all of them or none, so its statement upserts the rollups from these rows (a few
 * dozen for a site's usual traffic) instead of grouping its thousand inserted visits four times: the database does
 * less work, for a little more of the server's, and the database is what ingest waits on. Days are counted from 1970-01-01 (UTC), as `(occurred_at at time zone 'UTC')::date` gives them.
 */
export interface BatchRollups {
  /** Visits per profile and day (bots and citations: a profile holds the bot and the engine). */
  profileDays: { profile: string; day: string; visits: string };
  /** Bot visits per domain (named by one of its profiles) and page. */
  pages: { profile: string; page: string; visits: string };
  /** The earliest citation per profile, day and page, in milliseconds. */
  citedPages: { profile: string; day: string; page: string; firstMs: string };
}

/** Counts a batch's rollup rows one visit at a time; the visits of a domain arrive together (insertOrder). */
class RollupCounter {
  /** Per profile, its days and visits as pairs (a batch's profile spans a day or two: a scan beats a map). */
  private readonly profileDays: number[][] = [];
  private domainProfile = 0;
  private pageVisits = new Map<string, { visits: number }>();
  /** Per profile, each cited page's days and earliest times as pairs. */
  private readonly citedFirst: Map<string, number[]>[] = [];
  private readonly pages = { profile: [] as number[], page: [] as string[], visits: [] as number[] };

  add(
    profile: number,
    isBot: boolean,
    engine: string | null,
    ms: number,
    path: string,
    newDomain: boolean,
  ): void {
    if (newDomain) this.endDomain();
    const day = Math.floor(ms / DAY_MS);
    let days = this.profileDays[profile];
    if (days === undefined) {
      days = [];
      this.profileDays[profile] = days;
    }
    let d = 0;
    while (d < days.length && days[d] !== day) d += 2;
    if (d < days.length) days[d + 1]!++;
    else days.push(day, 1);
    if (isBot) {
      const page = pageOf(path);
      if (this.domainProfile === 0) this.domainProfile = profile;
      const count = this.pageVisits.get(page);
      if (count === undefined) this.pageVisits.set(page, { visits: 1 });
      else count.visits++;
    }
    if (engine !== null) {
      // By profile (which names the engine), then page: no key is built per citation.
      let byPage = this.citedFirst[profile];
      if (byPage === undefined) {
        byPage = new Map();
        this.citedFirst[profile] = byPage;
      }
      const page = pageOf(path);
      const firsts = byPage.get(page);
      if (firsts === undefined) byPage.set(page, [day, ms]);
      else {
        let f = 0;
        while (f < firsts.length && firsts[f] !== day) f += 2;
        if (f === firsts.length) firsts.push(day, ms);
        else if (ms < firsts[f + 1]!) firsts[f + 1] = ms;
      }
    }
  }

  private endDomain(): void {
    for (const [page, count] of this.pageVisits) {
      this.pages.profile.push(this.domainProfile);
      this.pages.page.push(page);
      this.pages.visits.push(count.visits);
    }
    this.domainProfile = 0;
    if (this.pageVisits.size > 0) this.pageVisits = new Map();
  }

  encode(): BatchRollups {
    this.endDomain();
    const profile: number[] = [];
    const day: number[] = [];
    const visits: number[] = [];
    const cited = {
      profile: [] as number[],
      day: [] as number[],
      page: [] as string[],
      firstMs: [] as number[],
    };
    this.citedFirst.forEach((byPage, n) => {
      for (const [page, firsts] of byPage) {
        for (let f = 0; f < firsts.length; f += 2) {
          cited.profile.push(n);
          cited.page.push(page);
          cited.day.push(firsts[f]!);
          cited.firstMs.push(firsts[f + 1]!);
        }
      }
    });
    for (let n = 1; n < this.profileDays.length; n++) {
      const days = this.profileDays[n];
      if (days === undefined) continue;
      for (let d = 0; d < days.length; d += 2) {
        profile.push(n);
        day.push(days[d]!);
        visits.push(days[d + 1]!);
      }
    }
    return {
      profileDays: {
        profile: pgArrayLiteral(profile),
        day: pgArrayLiteral(day),
        visits: pgArrayLiteral(visits),
      },
      pages: {
        profile: pgArrayLiteral(this.pages.profile),
        page: pgArrayLiteral(this.pages.page),
        visits: pgArrayLiteral(this.pages.visits),
      },
      citedPages: {
        profile: pgArrayLiteral(cited.profile),
        day: pgArrayLiteral(cited.day),
        page: pgArrayLiteral(cited.page),
        firstMs: pgArrayLiteral(cited.firstMs),
      },
    };
  }
}

/**
 * A batch of visits as the `unnest` parameters of the insert. A batch repeats a few dozen "profiles" (the same
 * domain, agent, referrer, bot and verdicts), so those fields travel once per distinct profile and each
 * visit carries the number of its profile besides its own time, path, address, status and key: a batch sends a
 * fraction of the bytes one array per column would, and a user agent travels only when the process has not
 * met its agent before (visit-agents), as an agent's id otherwise.
 */
export function encodeVisitBatch(rows: readonly NewVisit[]): {
  profiles: Record<(typeof PROFILE_FIELDS)[number], string>;
  /** Each profile's agent, in the profiles' order: the statement takes their ids (visit-agents). */
  agents: AgentFields[];
  visits: Record<(typeof ROW_FIELDS)[number], string>;
  /** What the batch adds to the rollups if every visit it sends is new. */
  rollups: BatchRollups;
  /** How many visits the batch sends (an event repeated in it is sent once). */
  count: number;
  /** The batch's domains, sorted and comma-separated. */
  domains: string;
  /** How many of its visits are citations (AI-referred people). */
  citations: number;
} {
  // Profiles by user agent (a string's hash is computed once per string), then the first visit of each profile
  // compared field by field: nothing is built per visit.
  const byAgent = new Map<string, { first: NewVisit; n: number }[]>();
  const profiles = PROFILE_READ.map(() => [] as Cell[]);
  const agents: AgentFields[] = [];
  const visits = ROW_FIELDS.map(() => new Array<Cell>(rows.length));
  const rollups = new RollupCounter();
  const sorted = [...rows].sort(insertOrder);
  // An event sent twice in one batch (the same key and time: the visits' primary key) is stored once, as its first
  // occurrence (the sort is stable): sorted by time and key, repeats are neighbours. Dropping them here keeps the
  // batch's plain insert from failing on itself.
  let i = 0;
  let domains = "";
  let citations = 0;
  for (let s = 0; s < sorted.length; s++) {
    const r = sorted[s]!;
    const prev = s > 0 ? sorted[s - 1]! : undefined;
    if (
      prev !== undefined &&
      prev.eventKey === r.eventKey &&
      prev.domainId === r.domainId &&
      (prev.occurredAt as Date).getTime() === (r.occurredAt as Date).getTime()
    )
      continue;
    const newDomain = prev === undefined || prev.domainId !== r.domainId;
    if (newDomain) domains += prev === undefined ? r.domainId : `,${r.domainId}`;
    let same = byAgent.get(r.userAgent);
    if (same === undefined) {
      same = [];
      byAgent.set(r.userAgent, same);
    }
    let n = 0;
    for (const p of same) {
      if (sameProfile(p.first, r)) {
        n = p.n;
        break;
      }
    }
    if (n === 0) {
      n = profiles[0]!.length + 1;
      same.push({ first: r, n });
      for (let f = 0; f < PROFILE_READ.length; f++) profiles[f]!.push(PROFILE_READ[f]!(r));
      agents.push(agentOf(r));
    }
    // Milliseconds since the epoch: shorter than ISO text and far cheaper to write (V8 formats ISO with printf).
    const ms = (r.occurredAt as Date).getTime();
    rollups.add(n, r.botName != null, r.citationEngine ?? null, ms, r.path, newDomain);
    if (r.citationEngine != null) citations++;
    visits[0]![i] = n;
    visits[1]![i] = ms;
    visits[2]![i] = r.path;
    visits[3]![i] = r.ip;
    visits[4]![i] = r.status;
    visits[5]![i] = r.eventKey;
    i++;
  }
  for (const column of visits) column.length = i;
  return {
    profiles: Object.fromEntries(PROFILE_FIELDS.map((f, i) => [f, pgArrayLiteral(profiles[i]!)])) as never,
    agents,
    visits: Object.fromEntries(ROW_FIELDS.map((f, i) => [f, pgArrayLiteral(visits[i]!)])) as never,
    rollups: rollups.encode(),
    count: i,
    domains,
    citations,
  };
}
