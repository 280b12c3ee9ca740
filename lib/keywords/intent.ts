import { tokenize } from "./tokenize";

export const INTENTS = ["informational", "commercial", "transactional", "navigational"] as const;
export type Intent = (typeof INTENTS)[number];

/**
 * Search intent of a keyphrase, read only from words in the phrase itself that signal it (what else is on
 * the page, such as a pricing link in its menu, says nothing about what the searcher wants). Rules, the first
 * that matches wins:
 *
 * | Intent        | When the phrase holds                                                                     |
 * |---------------|-------------------------------------------------------------------------------------------|
 * | navigational  | the site's own name (og:site_name, its domain's name), or a place on a site: login,       |
 * |               | sign in, account, dashboard, contact, customer service, phone number, website, app       |
 * | transactional | a doing-business word: buy, order, price, pricing, cost, cheap, deal, discount, coupon,   |
 * |               | sale, for sale, shop, store, cart, subscribe, subscription, trial, book, booking, hire,   |
 * |               | rent, delivery, shipping, near me, quote, download, install, free shipping                |
 * | commercial    | a comparing word: best, top, review, vs, versus, compare, comparison, alternative,        |
 * |               | recommended, rated, rating, pros, cons, benchmark, cheapest-vs style "or" questions       |
 * | informational | a question or learning word (what, how, why, when, who, guide, tutorial, meaning, ideas,  |
 * |               | examples, tips, definition, history), or no signal at all: a reader wants to know         |
 *
 * A phrase that starts as a question ("how to start an online store", "when is the best time to visit") wants to
 * know, unless it asks a price ("how much does X cost": transactional) or compares ("is X worth it": commercial).
 * Navigational
 * comes first because a brand query means the searcher wants that site whatever the other words say.
 */
const NAVIGATIONAL = new Set(
  "login log-in signin sign-in account dashboard contact website app portal homepage".split(" "),
);
const NAVIGATIONAL_PAIRS = [
  "sign in",
  "log in",
  "customer service",
  "phone number",
  "official site",
  "customer support",
];
const TRANSACTIONAL = new Set(
  "buy purchase register order orders price prices pricing cost costs cheap cheapest deal deals discount discounts coupon coupons promo sale shop store cart checkout subscribe subscription trial book booking hire rent rental delivery shipping quote quotes download install tickets ticket".split(
    " ",
  ),
);
const TRANSACTIONAL_PAIRS = ["near me", "for sale"];
/** Words that ask a price: they keep a question ("how much does X cost") transactional. */
const PRICE = new Set("price prices pricing cost costs cheap cheapest quote quotes".split(" "));
/** Words that start a question; such a phrase wants to know, unless it asks a price or compares. */
const QUESTION_START = new Set("how what why when who where which is are can does do should".split(" "));
const COMMERCIAL = new Set(
  "best top review reviews brands vs versus compare compared comparison alternative alternatives recommended rated rating ratings pros cons benchmark worth".split(
    " ",
  ),
);
const INFORMATIONAL = new Set(
  "what how why when who where which guide tutorial meaning definition define ideas examples example tips history explained learn is does can".split(
    " ",
  ),
);

export interface IntentInput {
  phrases: string[];
  /** Lower-case names the site goes by: its og:site_name and its domain's first label. */
  siteNames: string[];
}

export function classifyIntent(input: IntentInput): { intent: Intent; reason: string } {
  const words = new Set(input.phrases.flatMap(tokenize));
  const joined = ` ${input.phrases.map((p) => tokenize(p).join(" ")).join(" | ")} `;
  const brand = input.siteNames.find(
    (n) => n.length >= 3 && new RegExp(`(^|[^\\p{L}\\p{N}])${n}([^\\p{L}\\p{N}]|$)`, "u").test(joined),
  );
  if (brand) return { intent: "navigational", reason: `names the site (“${brand}”)` };
  const hit = (set: Set<string>) => [...words].find((w) => set.has(w));
  const pair = (list: readonly string[]) =>
    list.find((p) => joined.includes(` ${p} `) || joined.includes(` ${p}`));
  const nav = pair(NAVIGATIONAL_PAIRS) ?? hit(NAVIGATIONAL);
  if (nav) return { intent: "navigational", reason: `names a place on a site (“${nav}”)` };
  const first = input.phrases
    .map((p) => tokenize(p)[0])
    .find((w) => w !== undefined && QUESTION_START.has(w));
  if (first) {
    const price = hit(PRICE);
    if (price) return { intent: "transactional", reason: `a question about price (“${price}”)` };
    const compare = hit(COMMERCIAL);
    if (compare) return { intent: "commercial", reason: `a question comparing (“${compare}”)` };
    return { intent: "informational", reason: `a question (“${first} …”)` };
  }
  const buy = pair(TRANSACTIONAL_PAIRS) ?? hit(TRANSACTIONAL);
  if (buy) return { intent: "transactional", reason: `buying word “${buy}”` };
  const compare = hit(COMMERCIAL);
  if (compare) return { intent: "commercial", reason: `comparing word “${compare}”` };
  const learn = hit(INFORMATIONAL);
  if (learn) return { intent: "informational", reason: `question or learning word “${learn}”` };
  return { intent: "informational", reason: "no buying, comparing or site words: a reader wants to know" };
}
