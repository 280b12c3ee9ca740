import http from "node:http";
import type { AddressInfo } from "node:net";

/** A keyword the fake knows, in DataForSEO Labs' item shape. */
export interface FakeKeyword {
  keyword: string;
  searchVolume: number;
  cpc: number | null;
  difficulty: number;
  intent: "informational" | "navigational" | "commercial" | "transactional";
}

export interface FakeDataForSeo {
  url: string;
  login: string;
  password: string;
  /** Every request: its path and parsed JSON body. */
  requests: { path: string; body: unknown }[];
  /** Make the task of one path fail with a DataForSEO status (e.g. 40501 Invalid Field). */
  failTask(path: string, statusCode: number, statusMessage: string): void;
  close(): Promise<void>;
}

const MONTHS = 12;

function labsItem(k: FakeKeyword, location: number, language: string) {
  return {
    se_type: "google",
    keyword: k.keyword,
    location_code: location,
    language_code: language,
    search_partners: false,
    keyword_info: {
      se_type: "google",
      last_updated_time: "2025-08-04 10:12:53 +00:00",
      competition: 0.42,
      competition_level: "MEDIUM",
      cpc: k.cpc,
      search_volume: k.searchVolume,
      low_top_of_page_bid: 0.5,
      high_top_of_page_bid: 2.1,
      categories: [10021],
      // Newest first, as DataForSEO lists them.
      monthly_searches: Array.from({ length: MONTHS }, (_, i) => {
        const d = new Date(Date.UTC(2025, 6 - i, 1));
        return {
          year: d.getUTCFullYear(),
          month: d.getUTCMonth() + 1,
          search_volume: k.searchVolume + i * 10,
        };
      }),
      search_volume_trend: { monthly: 0, quarterly: 22, yearly: 50 },
    },
    keyword_properties: {
      se_type: "google",
      core_keyword: null,
      synonym_clustering_algorithm: "text_processing",
      keyword_difficulty: k.difficulty,
      detected_language: language,
      is_another_language: false,
    },
    impressions_info: null,
    serp_info: null,
    avg_backlinks_info: null,
    search_intent_info: {
      se_type: "google",
      main_intent: k.intent,
      foreign_intent: null,
      last_updated_time: "2025-03-10 03:16:02 +00:00",
    },
  };
}

/**
 * A DataForSEO v3 stand-in on 127.0.0.1: Basic auth, the task envelope (`status_code`s on the envelope and on
 * each task, `cost`, `tasks_count`, `tasks_error`), Labs keyword items and Backlinks results.
 */
export async function startFakeDataForSeo(opts: {
  keywords: FakeKeyword[];
  backlinksTarget?: string;
}): Promise<FakeDataForSeo> {
  const login = "fake-login@example.com";
  const password = "fake-password";
  const requests: FakeDataForSeo["requests"] = [];
  const failures = new Map<string, { status_code: number; status_message: string }>();
  let taskSeq = 0;

  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const path = new URL(req.url ?? "/", "http://x").pathname;
    let body: unknown = null;
    try {
      body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
    } catch {
      body = null;
    }
    requests.push({ path, body });
    const send = (status: number, payload: unknown) => {
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify(payload));
    };
    const expected = `Basic ${Buffer.from(`${login}:${password}`).toString("base64")}`;
    if (req.headers.authorization !== expected) {
      return send(401, {
        version: "0.1.20250801",
        status_code: 40100,
        status_message:
          "You are not authorized to access this resource. See your login details here: https://app.dataforseo.com/api-access",
        time: "0 sec.",
        cost: 0,
        tasks_count: 0,
        tasks_error: 0,
        tasks: null,
      });
    }
    const task = (Array.isArray(body) ? body[0] : null) as Record<string, unknown> | null;
    const id = `11231305-1535-0${String(++taskSeq).padStart(3, "0")}-0000-9a1b2c3d4e5f`;
    const envelope = (t: Record<string, unknown>) => ({
      version: "0.1.20250801",
      status_code: 20000,
      status_message: "Ok.",
      time: "0.1200 sec.",
      cost: t.cost,
      tasks_count: 1,
      tasks_error: (t.status_code as number) === 20000 ? 0 : 1,
      tasks: [t],
    });
    const failure = failures.get(path);
    if (!task || failure) {
      const f = failure ?? { status_code: 40503, status_message: "POST Data Is Invalid." };
      return send(
        200,
        envelope({
          id,
          ...f,
          time: "0 sec.",
          cost: 0,
          result_count: 0,
          path: path.split("/").filter(Boolean),
          data: task,
          result: null,
        }),
      );
    }
    const ok = (result: unknown[], cost: number) =>
      send(
        200,
        envelope({
          id,
          status_code: 20000,
          status_message: "Ok.",
          time: "0.1 sec.",
          cost,
          result_count: result.length,
          path: path.split("/").filter(Boolean),
          data: { api: path.split("/")[2], function: path.split("/")[4], ...task },
          result,
        }),
      );

    const location = (task.location_code as number | undefined) ?? 2840;
    const language = (task.language_code as string | undefined) ?? "en";
    switch (path) {
      case "/v3/dataforseo_labs/google/keyword_overview/live": {
        const asked = (task.keywords as string[]).map((k) => k.toLowerCase());
        const items = opts.keywords
          .filter((k) => asked.includes(k.keyword))
          .map((k) => labsItem(k, location, language));
        return ok(
          [
            {
              se_type: "google",
              location_code: location,
              language_code: language,
              items_count: items.length,
              items,
            },
          ],
          0.0101 + 0.0001 * items.length,
        );
      }
      case "/v3/dataforseo_labs/google/keyword_ideas/live": {
        const words = (task.keywords as string[]).flatMap((k) => k.toLowerCase().split(/\s+/));
        const items = opts.keywords
          .filter((k) => words.some((w) => k.keyword.includes(w)))
          .sort((a, b) => b.searchVolume - a.searchVolume)
          .slice(0, (task.limit as number) ?? 700)
          .map((k) => labsItem(k, location, language));
        if (items.length === 0) {
          return send(
            200,
            envelope({
              id,
              status_code: 40102,
              status_message: "No Search Results.",
              time: "0.1 sec.",
              cost: 0.01,
              result_count: 0,
              path: path.split("/").filter(Boolean),
              data: task,
              result: null,
            }),
          );
        }
        return ok(
          [
            {
              se_type: "google",
              seed_keywords: task.keywords,
              location_code: location,
              language_code: language,
              total_count: items.length,
              items_count: items.length,
              offset: 0,
              offset_token: "x",
              items,
            },
          ],
          0.0103,
        );
      }
      case "/v3/backlinks/summary/live":
        return ok(
          [
            {
              target: task.target,
              first_seen: "2019-01-01 00:00:00 +00:00",
              lost_date: null,
              rank: 412,
              backlinks: 1520,
              backlinks_spam_score: 3,
              crawled_pages: 80,
              info: null,
              internal_links_count: 900,
              external_links_count: 120,
              broken_backlinks: 4,
              broken_pages: 1,
              referring_domains: 87,
              referring_domains_nofollow: 12,
              referring_main_domains: 80,
              referring_main_domains_nofollow: 10,
              referring_ips: 70,
              referring_subnets: 60,
              referring_pages: 1300,
              referring_pages_nofollow: 200,
              referring_links_tld: { com: 1200 },
              referring_links_types: { anchor: 1500, image: 20 },
              referring_links_attributes: { nofollow: 220, noopener: 40 },
              referring_links_platform_types: {},
              referring_links_semantic_locations: {},
              referring_links_countries: {},
            },
          ],
          0.02003,
        );
      case "/v3/backlinks/anchors/live":
        return ok(
          [
            {
              target: task.target,
              total_count: 2,
              items_count: 2,
              items: [
                {
                  type: "backlinks_anchor",
                  anchor: "cold brew guide",
                  backlinks: 300,
                  first_seen: "2020-01-01 00:00:00 +00:00",
                  lost_date: null,
                  rank: 200,
                  backlinks_spam_score: 1,
                  broken_backlinks: 0,
                  broken_pages: 0,
                  referring_domains: 25,
                  referring_domains_nofollow: 2,
                  referring_main_domains: 24,
                  referring_main_domains_nofollow: 2,
                  referring_ips: 20,
                  referring_subnets: 18,
                  referring_pages: 290,
                  referring_links_tld: {},
                  referring_links_types: {},
                  referring_links_attributes: {},
                  referring_links_platform_types: {},
                  referring_links_semantic_locations: {},
                  referring_links_countries: {},
                  referring_pages_nofollow: 5,
                },
                { type: "backlinks_anchor", anchor: "Acme Coffee", backlinks: 120, referring_domains: 40 },
              ],
            },
          ],
          0.02006,
        );
      case "/v3/backlinks/referring_domains/live":
        return ok(
          [
            {
              target: task.target,
              total_count: 2,
              items_count: 2,
              items: [
                {
                  type: "backlinks_referring_domain",
                  domain: "wikipedia.org",
                  rank: 900,
                  backlinks: 3,
                  first_seen: "2021-01-01 00:00:00 +00:00",
                  lost_date: null,
                },
                { type: "backlinks_referring_domain", domain: "news-daily.com", rank: 500, backlinks: 11 },
              ],
            },
          ],
          0.02004,
        );
      case "/v3/backlinks/timeseries_new_lost_summary/live":
        return ok(
          [
            {
              target: task.target,
              date_from: task.date_from,
              date_to: task.date_to,
              group_range: "month",
              items_count: 2,
              items: [
                {
                  type: "backlinks_timeseries_new_lost_summary",
                  date: "2025-08-01 00:00:00 +00:00",
                  new_backlinks: 30,
                  lost_backlinks: 4,
                  new_referring_domains: 3,
                  lost_referring_domains: 1,
                  new_referring_main_domains: 3,
                  lost_referring_main_domains: 1,
                },
                {
                  type: "backlinks_timeseries_new_lost_summary",
                  date: "2025-07-01 00:00:00 +00:00",
                  new_backlinks: 12,
                  lost_backlinks: 9,
                  new_referring_domains: 2,
                  lost_referring_domains: 2,
                  new_referring_main_domains: 2,
                  lost_referring_main_domains: 2,
                },
              ],
            },
          ],
          0.02,
        );
      case "/v3/backlinks/bulk_ranks/live": {
        const targets = task.targets as string[];
        return ok(
          [
            {
              items_count: targets.length,
              items: targets.map((t, i) => ({ type: "backlinks_bulk_ranks", target: t, rank: 500 - i * 10 })),
            },
          ],
          0.02 + 0.00003 * targets.length,
        );
      }
      case "/v3/backlinks/bulk_referring_domains/live": {
        const targets = task.targets as string[];
        return ok(
          [
            {
              items_count: targets.length,
              items: targets.map((t, i) => ({
                type: "backlinks_bulk_referring_domains",
                target: t,
                referring_domains: 100 - i,
                referring_domains_nofollow: 5,
                referring_main_domains: 90 - i,
                referring_main_domains_nofollow: 4,
              })),
            },
          ],
          0.02 + 0.00003 * targets.length,
        );
      }
      default:
        return send(404, {
          version: "0.1.20250801",
          status_code: 40400,
          status_message: "Not Found.",
          time: "0 sec.",
          cost: 0,
          tasks_count: 0,
          tasks_error: 0,
          tasks: null,
        });
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    login,
    password,
    requests,
    failTask: (path, statusCode, statusMessage) =>
      failures.set(path, { status_code: statusCode, status_message: statusMessage }),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
