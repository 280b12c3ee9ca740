import { CWV_ERROR_CODES } from "@/lib/cwv/errors";
import type { JobFailureCode } from "@/lib/errors";
import { RUNNER_FAILURE_CODES } from "@/lib/errors/job-failures";
import { FETCH_ERROR_CODES } from "@/lib/fetch/types";
import type { KeywordResearchError } from "@/lib/keywords";
import { DATAFORSEO_ERROR_CODES } from "@/lib/providers/dataforseo/client";
import type { ToolName } from "./catalog";

/**
 * The codes a failed job can carry (`data.error.code` of `GET /jobs/{jobId}`), per tool, from the closed list
 * `JOB_FAILURE_CODES` (lib/errors). Every failure is refunded once. docs/api.md lists them under each tool
 * (`npm run docs:api`); test/tools/failures.test.ts holds each list to the codes the tool's folder throws and
 * docs/api.md to the lists; the job runner fails a job whose tool ends with a code outside its list with
 * TOOL_FAILED instead.
 */
export type { JobFailureCode };

export { RUNNER_FAILURE_CODES };

/**
 * What fetching and parsing one HTML page can end with (`fetchHtmlPage`, `loadHtml`): the guarded fetcher's
 * codes, a non-2xx, not HTML, markup past the parse limits.
 */
const PAGE_FETCH = [...FETCH_ERROR_CODES, "HTTP_ERROR", "NOT_HTML", "PAGE_TOO_COMPLEX"] as const;

const KEYWORD_RESEARCH = ["ROBOTS_DISALLOWED", "HTTP_ERROR", "NOT_HTML", "NO_TEXT"] as const;
// Every code KeywordResearchError can carry is listed (the type check fails otherwise).
type UnlistedKeywordCode = Exclude<KeywordResearchError["code"], (typeof KEYWORD_RESEARCH)[number]>;
const keywordCodesListed: [UnlistedKeywordCode] extends [never] ? true : false = true;
void keywordCodesListed;

/** Each tool's own failure codes, beside the runner's. */
export const TOOL_FAILURE_CODES = {
  audits: PAGE_FETCH,
  "core-web-vitals": CWV_ERROR_CODES,
  "keyword-research": [
    ...KEYWORD_RESEARCH,
    ...FETCH_ERROR_CODES,
    "PAGE_TOO_COMPLEX",
    ...DATAFORSEO_ERROR_CODES,
  ],
  "brand-visibility": ["ENGINES_FAILED"],
  "faq-generator": [...PAGE_FETCH, "INSUFFICIENT_CONTENT"],
  "llms-txt": [...FETCH_ERROR_CODES, "ROBOTS_DISALLOWED", "HTTP_ERROR", "NOT_HTML", "PAGE_TOO_COMPLEX"],
  "ai-citation-check": ["ENGINES_FAILED"],
  "seo-aeo-geo-audit": PAGE_FETCH,
  "backlinks-overview": DATAFORSEO_ERROR_CODES,
  "keyword-metrics": DATAFORSEO_ERROR_CODES,
  "domain-authority": DATAFORSEO_ERROR_CODES,
  serp: DATAFORSEO_ERROR_CODES,
  "ai-access": [...FETCH_ERROR_CODES, "HTTP_ERROR"],
} as const satisfies Record<ToolName, readonly JobFailureCode[]>;

// Every code of the closed list is the runner's or some tool's (the type check fails on an orphan).
type UnusedFailureCode = Exclude<
  JobFailureCode,
  (typeof RUNNER_FAILURE_CODES)[number] | (typeof TOOL_FAILURE_CODES)[ToolName][number]
>;
const everyCodeUsed: [UnusedFailureCode] extends [never] ? true : false = true;
void everyCodeUsed;

/** Every code a job of `tool` can fail with: its own, then the runner's, each once. */
export function failureCodesOf(tool: ToolName): JobFailureCode[] {
  return [...new Set<JobFailureCode>([...TOOL_FAILURE_CODES[tool], ...RUNNER_FAILURE_CODES])];
}

/**
 * Whether a job of `tool` may end with `code`. A tool outside the catalogue (a test's own) may end with any
 * code of the closed list.
 */
export function mayFailWith(tool: string, code: JobFailureCode): boolean {
  if (!Object.hasOwn(TOOL_FAILURE_CODES, tool)) return true;
  return (
    (TOOL_FAILURE_CODES[tool as ToolName] as readonly string[]).includes(code) ||
    (RUNNER_FAILURE_CODES as readonly string[]).includes(code)
  );
}

/** One line per code, for docs/api.md. */
export const FAILURE_MEANINGS: Record<JobFailureCode, string> = {
  TIMEOUT: "The job ran past the tool's time limit and was stopped.",
  MEMORY_LIMIT: "The tool needed more memory than a job may use and was stopped.",
  INTERRUPTED: "The process running the job stopped or died while it ran.",
  QUEUE_TIMEOUT: "No runner took the job within the queue's time limit.",
  TOOL_UNAVAILABLE: "The tool cannot run on this server.",
  TOOL_FAILED: "An unexpected error; its details stay in the server's log.",
  INVALID_URL: "The URL cannot be fetched (not http or https, or malformed).",
  TARGET_FORBIDDEN:
    "The URL leads to an address the service never fetches (private, loopback, link-local or metadata).",
  DNS_ERROR: "The host name does not resolve.",
  CONNECT_ERROR: "The host refused or dropped the connection.",
  FETCH_TIMEOUT: "The site did not answer in time.",
  TOO_MANY_REDIRECTS: "The URL redirects more often than the fetcher follows.",
  RESPONSE_TOO_LARGE: "The answer is larger than the fetcher reads.",
  FETCH_FAILED: "The page could not be fetched because of an unexpected error.",
  HTTP_ERROR: "The page answered with a status other than 2xx.",
  NOT_HTML: "The page is not HTML.",
  PAGE_TOO_COMPLEX:
    "The page's markup is past the parse limits (elements open inside one another, elements, parser work or time); a megabyte of unclosed tags, say.",
  ROBOTS_DISALLOWED: "The site's robots.txt does not allow the crawl.",
  NO_TEXT: "The site's pages hold too little text to find keyphrases in.",
  INSUFFICIENT_CONTENT: "The page holds too little content for the result; nothing is padded.",
  PAGE_TIMEOUT: "The page never settled within the lab run's time limit.",
  PAGE_LOAD_FAILED: "The browser could not load the page.",
  BROWSER_UNAVAILABLE: "The browser could not be started.",
  LIGHTHOUSE_FAILED: "Lighthouse failed to measure the page.",
  ABORTED: "The measurement was stopped before it finished.",
  ENGINES_FAILED: "No AI engine asked could answer (each engine's error is in the message).",
  DATAFORSEO_NOT_CONFIGURED: "The data provider is not configured on this server.",
  DATAFORSEO_AUTH_FAILED: "The data provider refused this server's credentials.",
  DATAFORSEO_PAYMENT_REQUIRED: "The data provider's account has no funds left.",
  DATAFORSEO_RATE_LIMITED: "The data provider's rate limit was reached.",
  DATAFORSEO_INVALID_REQUEST: "The data provider refused the request's fields.",
  DATAFORSEO_NOT_FOUND: "The data provider has no data for the request.",
  DATAFORSEO_UPSTREAM_ERROR: "The data provider reported an error on its side.",
  DATAFORSEO_SERVER_ERROR: "The data provider answered with a server error.",
  DATAFORSEO_UNREACHABLE: "The data provider could not be reached.",
  DATAFORSEO_BAD_RESPONSE: "The data provider's answer could not be read.",
};
