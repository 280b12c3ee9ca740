import { tokenize } from "./tokenize";

export const INTENTS = ["informational", "commercial", "transactional", "navigational"] as const;
export type Intent = (typeof INTENTS)[number];

/**
 * Search intent of a topic, by rules applied in this order (the first that matches wins):
 *
 * | Intent        | When                                                                                        |
 * |---------------|---------------------------------------------------------------------------------------------|
 * | navigational  | a phrase names the site itself (its og:site_name or its domain's name), or a place on it:   |
 * |               | login, account, contact, support, download page                                             |
 * | transactional | a phrase or the topic's page titles hold a buying word: buy, order, price(s), pricing,      |
 * |               | cost, cheap, deal(s), discount, coupon, sale, shop, store, cart, checkout, subscribe,       |
 * |               | subscription, plan(s), trial, book, booking, hire, rent, delivery, shipping                 |
 * | commercial    | a comparing word: best, top, review(s), vs, versus, compare, comparison, alternative(s),    |
 * |               | brand(s), recommended, rated, rating(s), pros, cons, benchmark, product(s)                  |
 * | informational | anything else — what/how/why phrasing, guides, definitions, FAQs: a reader wants to know   |
 *
 * Navigational comes first because a brand query means the searcher wants that site whatever else the words
 * say; transactional before commercial because "buy the best X" is ready to buy, not still comparing.
 */
const NAVIGATIONAL = new Set([
  "login",
  "log-in",
  "signin",
  "sign-in",
  "account",
  "contact",
  "support",
  "dashboard",
]);
const TRANSACTIONAL = new Set(
  "buy order orders price prices pricing cost costs cheap deal deals discount coupon sale shop store cart checkout subscribe subscription plan plans trial book booking hire rent delivery shipping".split(
    " ",
  ),
);
const COMMERCIAL = new Set(
  "best top review reviews vs versus compare comparison alternative alternatives brand brands recommended rated rating ratings pros cons benchmark product products".split(
    " ",
  ),
);

export interface IntentInput {
  phrases: string[];
  /** Titles of the topic's pages; buying and comparing words there count too. */
  pageTitles: string[];
  /** Lower-case names the site goes by: its og:site_name and its domain's first label. */
  siteNames: string[];
}

export function classifyIntent(input: IntentInput): { intent: Intent; reason: string } {
  const phraseWords = new Set(input.phrases.flatMap(tokenize));
  const titleWords = new Set(input.pageTitles.flatMap(tokenize));
  const joined = ` ${input.phrases.join(" | ").toLowerCase()} `;
  const brand = input.siteNames.find((n) => n.length >= 3 && joined.includes(n));
  if (brand) return { intent: "navigational", reason: `names the site (“${brand}”)` };
  const hit = (words: Set<string>, from: Set<string>) => [...from].find((w) => words.has(w));
  const nav = hit(NAVIGATIONAL, phraseWords);
  if (nav) return { intent: "navigational", reason: `names a place on the site (“${nav}”)` };
  const buy = hit(TRANSACTIONAL, phraseWords) ?? hit(TRANSACTIONAL, titleWords);
  if (buy) return { intent: "transactional", reason: `buying word “${buy}”` };
  const compare = hit(COMMERCIAL, phraseWords) ?? hit(COMMERCIAL, titleWords);
  if (compare) return { intent: "commercial", reason: `comparing word “${compare}”` };
  return {
    intent: "informational",
    reason: "no buying, comparing or site-name words: a reader wants to know",
  };
}
