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
  /** The results page the SERP endpoint answers (default: `fakeSerpPage()`). */
  serp?: FakeSerpPage;
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
      case "/v3/serp/google/organic/live/advanced": {
        const page = opts.serp ?? fakeSerpPage();
        const depth = (task.depth as number | undefined) ?? 100;
        const items = serpItems(page, task).filter((i) => i.type !== "organic" || i.rank_group <= depth);
        return ok(
          [
            {
              keyword: task.keyword,
              type: "organic",
              se_domain: "google.com",
              location_code: location,
              language_code: language,
              check_url: `https://www.google.com/search?q=${encodeURIComponent(String(task.keyword))}&num=100&hl=${language}&gl=US&gws_rd=cr&ie=UTF-8&oe=UTF-8`,
              datetime: "2026-11-23 10:15:02 +00:00",
              spell: null,
              refinement_chips: null,
              item_types: [...new Set(items.map((i) => i.type))],
              se_results_count: 85600000,
              items_count: items.length,
              items,
            },
          ],
          // Live advanced: $0.002 a page of up to 100 results, plus $0.0012 for the asynchronous AI overview.
          0.002 + (task.load_async_ai_overview ? 0.0012 : 0),
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

/** A results page as the fake serves it: organic results and, optionally, an AI overview and its sources. */
export interface FakeSerpPage {
  organic: { url: string; title: string; description: string }[];
  aiOverview?: { text: string; references: { url: string; title: string; source: string }[] } | null;
  peopleAlsoAsk?: string[];
}

function fakeSerpPage(): FakeSerpPage {
  return {
    organic: [
      {
        url: "https://www.coffee-review.com/cold-brew-guide/",
        title: "Cold Brew Coffee: The Complete Guide",
        description: "Everything about cold brew: ratios, grind size and steeping time.",
      },
      {
        url: "https://shop.acme-coffee.com/cold-brew",
        title: "Cold Brew Concentrate | Acme Coffee",
        description: "Our slow-steeped cold brew concentrate, shipped fresh.",
      },
      {
        url: "https://en.wikipedia.org/wiki/Cold_brew_coffee",
        title: "Cold brew coffee - Wikipedia",
        description: "Cold brew coffee is made by steeping ground coffee in cold water.",
      },
    ],
    aiOverview: {
      text: "Cold brew coffee is made by steeping coarsely ground coffee in cold water for 12 to 24 hours.",
      references: [
        {
          url: "https://blog.acme-coffee.com/how-to-cold-brew#:~:text=steep",
          title: "How to cold brew at home",
          source: "Acme Coffee",
        },
        {
          url: "https://en.wikipedia.org/wiki/Cold_brew_coffee",
          title: "Cold brew coffee - Wikipedia",
          source: "Wikipedia",
        },
      ],
    },
    peopleAlsoAsk: ["Is cold brew stronger than coffee?"],
  };
}

/** DataForSEO's advanced SERP items (rank_group per type, rank_absolute over the page, xpath, …). */
function serpItems(page: FakeSerpPage, task: Record<string, unknown>) {
  const items: ({ type: string; rank_group: number; rank_absolute: number } & Record<string, unknown>)[] = [];
  let absolute = 0;
  if (page.aiOverview) {
    const [first, ...rest] = page.aiOverview.references;
    items.push({
      type: "ai_overview",
      rank_group: 1,
      rank_absolute: ++absolute,
      position: "left",
      xpath: "/html[1]/body[1]/div[3]/div[1]/div[12]/div[1]/div[2]/div[1]",
      asynchronous_ai_overview: Boolean(task.load_async_ai_overview),
      markdown: page.aiOverview.text,
      items: [
        {
          type: "ai_overview_element",
          rank_group: 1,
          rank_absolute: 1,
          position: "left",
          title: null,
          text: page.aiOverview.text,
          markdown: page.aiOverview.text,
          links: null,
          images: null,
          references: first
            ? [
                {
                  type: "ai_overview_reference",
                  rank_group: 1,
                  rank_absolute: 1,
                  position: "left",
                  source: first.source,
                  domain: new URL(first.url).hostname,
                  url: first.url,
                  title: first.title,
                  text: "…",
                },
              ]
            : null,
        },
      ],
      // The overview's full reference list, the element's own included again (the real API repeats them).
      references: [first, ...rest].flatMap((r) =>
        r
          ? [
              {
                type: "ai_overview_reference",
                source: r.source,
                domain: new URL(r.url).hostname,
                url: r.url,
                title: r.title,
                text: "…",
              },
            ]
          : [],
      ),
      rectangle: null,
    });
  }
  page.organic.forEach((o, i) => {
    items.push({
      type: "organic",
      rank_group: i + 1,
      rank_absolute: ++absolute,
      position: "left",
      xpath: `/html[1]/body[1]/div[7]/div[1]/div[9]/div[1]/div[${i + 1}]`,
      domain: new URL(o.url).hostname,
      title: o.title,
      url: o.url,
      cache_url: null,
      related_search_url: null,
      breadcrumb: `${new URL(o.url).origin} › ...`,
      website_name: null,
      is_image: false,
      is_video: false,
      is_featured_snippet: false,
      is_malicious: false,
      is_web_story: false,
      description: o.description,
      pre_snippet: null,
      extended_snippet: null,
      images: null,
      amp_version: false,
      rating: null,
      price: null,
      highlighted: [],
      links: null,
      faq: null,
      extended_people_also_search: null,
      about_this_result: null,
      related_result: null,
      timestamp: null,
      rectangle: null,
    });
    if (i === 0 && page.peopleAlsoAsk?.length) {
      items.push({
        type: "people_also_ask",
        rank_group: 1,
        rank_absolute: ++absolute,
        position: "left",
        xpath: "/html[1]/body[1]/div[7]/div[1]/div[9]/div[2]",
        items: page.peopleAlsoAsk.map((q) => ({
          type: "people_also_ask_element",
          title: q,
          seed_question: null,
          xpath: null,
          expanded_element: null,
        })),
        rectangle: null,
      });
    }
  });
  return items;
}
