import { loadHtml } from "@/lib/analysis/bounded-html";
import type { GuardedFetch } from "@/lib/fetch/types";
import { findDomainLabel } from "./domains";

const SEPARATORS = /\s+[|\-–—:·•»]\s+/;
const MAX_NAME = 60;

/**
 * The site's own name from its home page: `og:site_name`, else the part of the `<title>` that carries the
 * brand. Null when the page cannot be fetched or names nothing usable; the domain label is used then.
 */
export async function readSiteName(
  domain: string,
  fetch: GuardedFetch,
  signal?: AbortSignal,
): Promise<string | null> {
  try {
    const res = await fetch(`https://${domain}/`, { signal, timeoutMs: 8_000, maxBytes: 1024 * 1024 });
    if (res.status < 200 || res.status >= 300) return null;
    return parseSiteName(res.text(), domain);
  } catch {
    return null;
  }
}

export function parseSiteName(html: string, domain: string): string | null {
  const $ = loadHtml(html);
  const ogName = clean($('meta[property="og:site_name"]').attr("content"));
  if (ogName) return ogName;
  const title = clean($("title").first().text());
  if (!title) return null;
  const parts = title
    .split(SEPARATORS)
    .map((part) => part.trim())
    .filter(Boolean);
  const label = findDomainLabel(domain)?.replaceAll("-", "") ?? "";
  const squash = (s: string) => s.toLowerCase().replace(/[^\p{L}\p{N}]/gu, "");
  const branded = parts.find((part) => label !== "" && squash(part).includes(label));
  if (branded && branded.split(/\s+/).length <= 4) return branded;
  // A title of one short part is taken as the name; a descriptive title is not a brand.
  const only = parts.length === 1 ? parts[0]! : null;
  return only && only.split(/\s+/).length <= 3 ? only : null;
}

function clean(value: string | undefined): string | null {
  const text = value?.replace(/\s+/g, " ").trim();
  return text && text.length <= MAX_NAME ? text : null;
}
