import type { RedirectHop } from "@/lib/fetch/types";
import { createCheck, plural } from "./check";
import type { Check } from "./types";

export interface HttpFacts {
  url: string;
  finalUrl: string;
  status: number;
  redirects: RedirectHop[];
  elapsedMs: number;
}

const TEMPORARY = new Set([302, 303, 307]);

/** Transport-level checks of the page fetch: final status, HTTPS, the redirect chain and response time. */
export function analyzeHttp(facts: HttpFacts): Check[] {
  const chain = facts.redirects.map((r) => `${r.status} ${r.url} → ${r.location}`);
  const checks: Check[] = [
    createCheck(
      "http.status",
      "http",
      facts.status >= 200 && facts.status < 300 ? "pass" : "fail",
      `The page answered HTTP ${facts.status}.`,
      [`HTTP ${facts.status} ${facts.finalUrl}`],
    ),
  ];
  checks.push(
    new URL(facts.finalUrl).protocol === "https:"
      ? createCheck("http.https", "http", "pass", "The page is served over HTTPS.", [facts.finalUrl])
      : createCheck(
          "http.https",
          "http",
          "fail",
          "The page is served over plain HTTP. Serve it over HTTPS and redirect HTTP to it; browsers flag HTTP pages and search engines prefer HTTPS.",
          [facts.finalUrl],
        ),
  );
  const temporary = facts.redirects.filter((r) => TEMPORARY.has(r.status));
  if (facts.redirects.length > 1) {
    checks.push(
      createCheck(
        "http.redirects",
        "http",
        "warn",
        `The URL goes through a chain of ${plural(facts.redirects.length, "redirect")}. Link and redirect straight to the final URL; each hop costs time and crawl budget.`,
        chain,
      ),
    );
  } else if (temporary.length) {
    checks.push(
      createCheck(
        "http.redirects",
        "http",
        "warn",
        `The URL redirects with a temporary ${temporary[0]?.status}. If the move is permanent use 301 or 308 so engines index the target.`,
        chain,
      ),
    );
  } else {
    checks.push(
      createCheck(
        "http.redirects",
        "http",
        "pass",
        facts.redirects.length ? "One permanent redirect to the final URL." : "No redirects.",
        chain,
      ),
    );
  }
  const ms = Math.round(facts.elapsedMs);
  const timing = [`${ms} ms to fetch the HTML (redirects included)`];
  if (ms > 3000)
    checks.push(
      createCheck(
        "http.response-time",
        "http",
        "fail",
        `The HTML took ${ms} ms to arrive. Aim for under 1 s: cache pages, use a CDN, trim server work.`,
        timing,
      ),
    );
  else if (ms > 1000)
    checks.push(
      createCheck(
        "http.response-time",
        "http",
        "warn",
        `The HTML took ${ms} ms to arrive; under 1 s is the goal.`,
        timing,
      ),
    );
  else
    checks.push(createCheck("http.response-time", "http", "pass", `The HTML arrived in ${ms} ms.`, timing));
  return checks;
}
