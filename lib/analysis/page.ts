import { loadHtml } from "./bounded-html";
import type { HeaderMap, ParsedPage } from "./types";

/** Parses a fetched page once (parse5, as browsers do) for every analysis module. */
export function parsePage(input: { url: string | URL; html: string; headers?: HeaderMap }): ParsedPage {
  const headers: HeaderMap = {};
  for (const [name, values] of Object.entries(input.headers ?? {})) headers[name.toLowerCase()] = values;
  return { url: new URL(input.url), $: loadHtml(input.html), headers, html: input.html };
}
