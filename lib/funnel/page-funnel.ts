import { sql } from "drizzle-orm";
import { requireRegisteredDomain } from "@/lib/accounts/domains";
import {
  type PageFigures,
  pageKey,
  searchConsoleByPage,
  sessionsByPage,
} from "@/lib/connections/page-figures";
import type { Env } from "@/lib/connections/store";
import type { Db } from "@/lib/db/client";
import { rowsOf } from "@/lib/db/rows";
import { type AppError, validationError } from "@/lib/errors";
import { BOT_DEFINITIONS, getBotDefinition } from "@/lib/tracking/catalog/bots";
import { trackingReadCache, utcDay } from "@/lib/tracking/reports/read-cache";
import type { PageFunnelRow, PageSort, PagesReport, SortOrder, SourceStatus } from "./api-schemas";

const PAGES_METHOD =
  "Counted from the stored visits of the period (UTC days, today included): an AI crawl is a visit of an AI bot that is not a user-triggered fetch; a citation is a user-triggered fetch by an AI assistant or a person referred by an AI engine; an AI-referred visit is the latter. Search impressions and clicks are Google Search Console's, sessions the connected analytics' (GA4 or Plausible), over the same days.";

export interface PagesRequest {
  domain: string;
  days: number;
  limit: number;
  sort: PageSort;
  order?: SortOrder;
  cursor?: string;
}

/** The funnel of every page of the period, before sorting and paging (what the cache holds). */
interface Funnel {
  domain: string;
  startDate: string;
  endDate: string;
  rows: PageFunnelRow[];
  operators: PagesReport["operators"];
  totals: PagesReport["totals"];
  searchConsole: SourceStatus;
  analytics: SourceStatus;
}

/** The default direction of each sort: most first, except a path (A→Z) and the first citation (earliest first). */
export function defaultOrder(sort: PageSort): SortOrder {
  return sort === "path" || sort === "firstCitation" ? "asc" : "desc";
}

/**
 * GET /tracking/pages: for each page of a registered domain (403 FORBIDDEN_SCOPE otherwise) over the last `days`
 * UTC days, the funnel from AI crawl to citation to AI-referred visit, with the connected Search Console and
 * analytics figures beside it; sorted, and paged by an opaque keyset cursor. The whole period's funnel is cached
 * about 2 minutes per account, domain and period, so the pages of one listing come from one snapshot.
 */
export async function getPageFunnel(
  db: Db,
  env: Env,
  accountId: string,
  q: PagesRequest,
): Promise<PagesReport> {
  const row = await requireRegisteredDomain(db, accountId, q.domain);
  const order = q.order ?? defaultOrder(q.sort);
  const after = q.cursor === undefined ? null : readCursor(q.cursor, q.sort, order, q.days);
  const funnel = await trackingReadCache.getOrLoad(`pages|${accountId}|${row.id}|${q.days}`, () =>
    readFunnel(db, env, accountId, row.id, row.hostname, q.days, trackingReadCache.now()),
  );
  const compare = comparator(q.sort, order);
  const sorted = [...funnel.rows].sort((a, b) => compare(keyOf(a, q.sort), keyOf(b, q.sort)));
  const rest = after === null ? sorted : sorted.filter((r) => compare(keyOf(r, q.sort), after) > 0);
  const pages = rest.slice(0, q.limit);
  const last = pages.at(-1);
  return {
    domain: funnel.domain,
    periodDays: q.days,
    startDate: funnel.startDate,
    endDate: funnel.endDate,
    sort: q.sort,
    order,
    totals: funnel.totals,
    pages,
    nextCursor:
      rest.length > q.limit && last ? writeCursor(q.sort, order, q.days, keyOf(last, q.sort)) : null,
    operators: funnel.operators,
    searchConsole: funnel.searchConsole,
    analytics: funnel.analytics,
    method: PAGES_METHOD,
  };
}

/** A row's place in a sort: the sorted value (null: no citation yet) and its path, which breaks every tie. */
interface Key {
  v: number | string | null;
  p: string;
}

function keyOf(r: PageFunnelRow, sort: PageSort): Key {
  switch (sort) {
    case "crawls":
      return { v: r.aiCrawls.total, p: r.path };
    case "citations":
      return { v: r.citations.total, p: r.path };
    case "referrals":
      return { v: r.aiReferredVisits, p: r.path };
    case "firstCitation":
      return { v: r.firstCitationAt === null ? null : Date.parse(r.firstCitationAt), p: r.path };
    case "path":
      return { v: r.path, p: r.path };
  }
}

/** A total order (the path is unique), so a cursor after a key skips and repeats nothing. */
function comparator(sort: PageSort, order: SortOrder): (a: Key, b: Key) => number {
  const dir = order === "asc" ? 1 : -1;
  const byPath = (a: string, b: string) => (a === b ? 0 : a < b ? -1 : 1);
  return (a, b) => {
    if (sort === "path") return dir * byPath(a.p, b.p);
    // Pages never cited come last in both directions.
    if (a.v === null || b.v === null) {
      if (a.v !== b.v) return a.v === null ? 1 : -1;
    } else if (a.v !== b.v) return dir * ((a.v as number) < (b.v as number) ? -1 : 1);
    return byPath(a.p, b.p);
  };
}

function writeCursor(sort: PageSort, order: SortOrder, days: number, key: Key): string {
  return Buffer.from(JSON.stringify({ s: sort, o: order, d: days, v: key.v, p: key.p })).toString(
    "base64url",
  );
}

function badCursor(message: string): AppError {
  return validationError(message, [{ field: "cursor", message }]);
}

function readCursor(cursor: string, sort: PageSort, order: SortOrder, days: number): Key {
  let c: { s?: unknown; o?: unknown; d?: unknown; v?: unknown; p?: unknown };
  try {
    c = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
  } catch {
    throw badCursor("Not a cursor of this listing: pass the nextCursor of the previous answer.");
  }
  if (c === null || typeof c !== "object" || typeof c.p !== "string")
    throw badCursor("Not a cursor of this listing: pass the nextCursor of the previous answer.");
  if (c.s !== sort || c.o !== order || c.d !== days)
    throw badCursor(
      "This cursor belongs to another sort, order or period: keep them as they were, or start again without a cursor.",
    );
  const v = c.v;
  const valid =
    sort === "path" ? typeof v === "string" : v === null ? sort === "firstCitation" : typeof v === "number";
  if (!valid) throw badCursor("Not a cursor of this listing: pass the nextCursor of the previous answer.");
  return { v: v as Key["v"], p: c.p };
}

/** An engine's operator: the operator of the bots that serve it (ChatGPT → OpenAI), else the engine's name. */
const ENGINE_OPERATOR = new Map<string, string>();
for (const d of BOT_DEFINITIONS) {
  if (d.engine && d.operator && !ENGINE_OPERATOR.has(d.engine)) ENGINE_OPERATOR.set(d.engine, d.operator);
}
const operatorOfEngine = (engine: string) => ENGINE_OPERATOR.get(engine) ?? engine;
const operatorOfBot = (bot: string) => getBotDefinition(bot)?.operator ?? bot;

/** A timestamptz as the drivers give it (PGlite a Date, postgres.js text such as "2026-11-28 09:00:00.123+00"). */
function msOf(v: unknown): number {
  if (v instanceof Date) return v.getTime();
  const text = String(v)
    .replace(" ", "T")
    .replace(/([+-]\d\d)$/, "$1:00");
  return Date.parse(text);
}
const iso = (v: unknown): string | null => (v == null ? null : new Date(msOf(v)).toISOString());
const sortCounts = (m: Map<string, number>) =>
  [...m]
    .map(([name, count]) => ({ name, count }))
    .sort((a, b) => b.count - a.count || (a.name < b.name ? -1 : 1));

async function readFunnel(
  db: Db,
  env: Env,
  accountId: string,
  domainId: string,
  hostname: string,
  days: number,
  now: number,
): Promise<Funnel> {
  const startDate = utcDay(now, days - 1);
  const endDate = utcDay(now);
  const window = { startDate, endDate };
  const [crawlRows, citeRows, botRows, search, sessions] = await Promise.all([
    // The page funnel's daily rollups (kept on ingest): at most one row per page and day of the period.
    db.execute(sql`
      select page, sum(ai_crawls)::text as crawls, sum(verified_ai_crawls)::text as verified,
             min(first_crawl_at) as first_crawl
      from tracking_daily_pages
      where domain_id = ${domainId} and day >= ${startDate}::date
      group by page`),
    db.execute(sql`
      select page, engine, assistant, sum(citations)::text as n, min(first_cited_at) as first_cited
      from tracking_daily_page_citations
      where domain_id = ${domainId} and day >= ${startDate}::date
      group by page, engine, assistant`),
    // AI bots' visits of the period per bot, from the daily rollup.
    db.execute(sql`
      select bot_name as bot, sum(visits)::text as n from tracking_daily_bots
      where domain_id = ${domainId} and day >= ${startDate}::date and is_ai_bot
      group by bot_name`),
    searchConsoleByPage(db, env, accountId, hostname, window),
    sessionsByPage(db, env, accountId, hostname, window),
  ]);

  const byEngine = new Map<string, Map<string, number>>();
  const byAssistant = new Map<string, Map<string, number>>();
  const fetchesByBot = new Map<string, number>();
  const referralsByOperator = new Map<string, number>();
  const add = (m: Map<string, Map<string, number>>, page: string, name: string, n: number) => {
    let inner = m.get(page);
    if (!inner) {
      inner = new Map();
      m.set(page, inner);
    }
    inner.set(name, (inner.get(name) ?? 0) + n);
  };
  const cited = new Map<string, { citations: number; referrals: number; first: number }>();
  for (const c of rowsOf<{
    page: string;
    engine: string;
    assistant: string;
    n: string;
    first_cited: unknown;
  }>(citeRows)) {
    const n = Number(c.n);
    const first = msOf(c.first_cited);
    const page = cited.get(c.page) ?? { citations: 0, referrals: 0, first };
    page.citations += n;
    page.first = Math.min(page.first, first);
    add(byEngine, c.page, c.engine, n);
    if (c.assistant !== "") {
      add(byAssistant, c.page, c.assistant, n);
      fetchesByBot.set(c.assistant, (fetchesByBot.get(c.assistant) ?? 0) + n);
    } else {
      page.referrals += n;
      const op = operatorOfEngine(c.engine);
      referralsByOperator.set(op, (referralsByOperator.get(op) ?? 0) + n);
    }
    cited.set(c.page, page);
  }

  const crawlsByOperator = new Map<string, number>();
  for (const b of rowsOf<{ bot: string; n: string }>(botRows)) {
    const crawls = Number(b.n) - (fetchesByBot.get(b.bot) ?? 0);
    if (crawls <= 0) continue;
    const op = operatorOfBot(b.bot);
    crawlsByOperator.set(op, (crawlsByOperator.get(op) ?? 0) + crawls);
  }
  const operators = [...new Set([...crawlsByOperator.keys(), ...referralsByOperator.keys()])]
    .map((operator) => {
      const aiCrawls = crawlsByOperator.get(operator) ?? 0;
      const aiReferredVisits = referralsByOperator.get(operator) ?? 0;
      return {
        operator,
        aiCrawls,
        aiReferredVisits,
        crawlsPerReferredVisit:
          aiReferredVisits > 0 ? Math.round((aiCrawls / aiReferredVisits) * 100) / 100 : null,
      };
    })
    .sort(
      (a, b) =>
        b.aiCrawls - a.aiCrawls ||
        b.aiReferredVisits - a.aiReferredVisits ||
        (a.operator < b.operator ? -1 : 1),
    );

  const known = <T>(f: PageFigures<T>, path: string, zero: T): T | null => {
    if (f.status !== "connected") return null;
    return f.byPath.get(pageKey(path)) ?? (f.complete ? zero : null);
  };
  const totals = { pages: 0, aiCrawls: 0, verifiedAiCrawls: 0, citations: 0, aiReferredVisits: 0 };
  const crawled = new Map(
    rowsOf<{ page: string; crawls: string; verified: string; first_crawl: unknown }>(crawlRows).map((r) => [
      r.page,
      r,
    ]),
  );
  const rows: PageFunnelRow[] = [...new Set([...crawled.keys(), ...cited.keys()])].map((path) => {
    const crawl = crawled.get(path);
    const cite = cited.get(path);
    const r = {
      page: path,
      crawls: Number(crawl?.crawls ?? 0),
      verified: Number(crawl?.verified ?? 0),
      citations: cite?.citations ?? 0,
      referrals: cite?.referrals ?? 0,
    };
    const firstCrawlAt = iso(crawl?.first_crawl);
    const firstCitationAt = cite ? new Date(cite.first).toISOString() : null;
    const lag =
      firstCrawlAt && firstCitationAt && Date.parse(firstCitationAt) >= Date.parse(firstCrawlAt)
        ? Math.round(((Date.parse(firstCitationAt) - Date.parse(firstCrawlAt)) / 3_600_000) * 10) / 10
        : null;
    const row: PageFunnelRow = {
      path: r.page,
      aiCrawls: { total: Number(r.crawls), verified: Number(r.verified) },
      firstCrawlAt,
      citations: {
        total: Number(r.citations),
        byEngine: sortCounts(byEngine.get(r.page) ?? new Map()),
        byAssistant: sortCounts(byAssistant.get(r.page) ?? new Map()),
      },
      firstCitationAt,
      hoursFromFirstCrawlToFirstCitation: lag,
      aiReferredVisits: Number(r.referrals),
      search: known(search, r.page, { impressions: 0, clicks: 0 }),
      sessions: known(sessions, r.page, 0),
    };
    totals.pages++;
    totals.aiCrawls += row.aiCrawls.total;
    totals.verifiedAiCrawls += row.aiCrawls.verified;
    totals.citations += row.citations.total;
    totals.aiReferredVisits += row.aiReferredVisits;
    return row;
  });
  const status = <T>(f: PageFigures<T>): SourceStatus => ({
    status: f.status,
    source: f.source,
    property: f.property,
    message: f.message,
    complete: f.status === "connected" && f.complete,
  });
  return {
    domain: hostname,
    startDate,
    endDate,
    rows,
    operators,
    totals,
    searchConsole: status(search),
    analytics: status(sessions),
  };
}
