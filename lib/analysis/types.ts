import type { CheerioAPI } from "cheerio";
import type { Severity } from "./check-catalog";

export type CheckStatus = "pass" | "warn" | "fail";

export type CheckCategory =
  | "http"
  | "crawl"
  | "security"
  | "meta"
  | "headings"
  | "structured-data"
  | "content"
  | "ai-access"
  | "aeo";

/** One finding about a page. `message` tells a person what to do; `evidence` shows what was seen. */
export interface Check {
  id: string;
  category: CheckCategory;
  status: CheckStatus;
  message: string;
  /** Short excerpts (header values, tags, counts) that justify the status; MAX_EVIDENCE items, then a count of the rest. */
  evidence: string[];
  /** The check in words, from check-catalog.ts: neutral title, severity when not passed, meaning, fix. */
  title: string;
  severity: Severity;
  meaning: string;
  fix: string;
}

/** Response headers as the guarded fetcher returns them: lower-cased names, every value kept. */
export type HeaderMap = Record<string, string[]>;

/** A fetched page parsed once and shared by every analysis module. */
export interface ParsedPage {
  /** The URL that answered (after redirects); links and canonicals resolve against it. */
  url: URL;
  $: CheerioAPI;
  headers: HeaderMap;
  html: string;
}

export const MAX_EVIDENCE = 12;
