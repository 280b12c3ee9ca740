import type { CheerioAPI } from "cheerio";
import type { Element } from "domhandler";
import { textOf } from "../blocks";
import { clip } from "../check";

export type JsonObject = Record<string, unknown>;

export interface ExtractedEntity {
  source: "json-ld" | "microdata";
  /** Where it sits, e.g. "json-ld[1] @graph[0]" or "microdata[0]". */
  path: string;
  data: JsonObject;
  /** The @context that applies (own or inherited from the enclosing @graph document); microdata has none. */
  context: unknown;
}

export interface MalformedBlock {
  index: number;
  error: string;
  snippet: string;
}

export interface Extraction {
  jsonLdBlocks: number;
  entities: ExtractedEntity[];
  malformed: MalformedBlock[];
}

export function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Schema.org type names of a node: "@type" as string or array, with "https://schema.org/" or "schema:" stripped. */
export function readTypes(node: JsonObject): string[] {
  const raw = node["@type"];
  const list = Array.isArray(raw) ? raw : raw === undefined ? [] : [raw];
  return list
    .filter((t): t is string => typeof t === "string")
    .map((t) =>
      t
        .trim()
        .replace(/^https?:\/\/(www\.)?schema\.org\//i, "")
        .replace(/^schema:/i, ""),
    )
    .filter(Boolean);
}

// Wrappers some CMSs put around JSON-LD for ancient parsers.
function unwrapScript(text: string): string {
  return text
    .trim()
    .replace(/^(\/\/\s*)?<!\[CDATA\[/, "")
    .replace(/(\/\/\s*)?\]\]>$/, "")
    .replace(/^<!--/, "")
    .replace(/-->$/, "")
    .trim();
}

function extractJsonLd($: CheerioAPI): {
  blocks: number;
  entities: ExtractedEntity[];
  malformed: MalformedBlock[];
} {
  const entities: ExtractedEntity[] = [];
  const malformed: MalformedBlock[] = [];
  const scripts = $("script")
    .toArray()
    .filter((el) => (el.attribs.type ?? "").split(";")[0]?.trim().toLowerCase() === "application/ld+json");
  scripts.forEach((el, index) => {
    const text = unwrapScript($(el).text());
    if (!text) {
      malformed.push({ index, error: "empty script", snippet: "" });
      return;
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (err) {
      malformed.push({ index, error: (err as Error).message, snippet: clip(text, 160) });
      return;
    }
    collectTopLevel(parsed, `json-ld[${index}]`, undefined, entities, malformed, index, 0);
  });
  return { blocks: scripts.length, entities, malformed };
}

function collectTopLevel(
  value: unknown,
  path: string,
  inheritedContext: unknown,
  out: ExtractedEntity[],
  malformed: MalformedBlock[],
  index: number,
  depth: number,
) {
  // Arrays of arrays of … : nothing real nests this deep.
  if (depth > 16) return;
  if (Array.isArray(value)) {
    for (const [i, v] of value.entries())
      collectTopLevel(v, `${path}[${i}]`, inheritedContext, out, malformed, index, depth + 1);
    return;
  }
  if (!isObject(value)) {
    malformed.push({
      index,
      error: `expected an object or array at ${path}, got ${typeof value}`,
      snippet: clip(JSON.stringify(value) ?? "", 80),
    });
    return;
  }
  const context = value["@context"] ?? inheritedContext;
  const graph = value["@graph"];
  if (graph !== undefined) {
    const members = Array.isArray(graph) ? graph : [graph];
    for (const [i, m] of members.entries())
      collectTopLevel(m, `${path} @graph[${i}]`, context, out, malformed, index, depth + 1);
    if (readTypes(value).length === 0) return;
  }
  out.push({ source: "json-ld", path, data: value, context });
}

/** Items of HTML microdata (itemscope/itemtype/itemprop), converted to JSON-LD-shaped objects. */
export function extractMicrodata($: CheerioAPI): ExtractedEntity[] {
  const topLevel = $("[itemscope]")
    .toArray()
    .filter((el) => el.attribs.itemprop === undefined);
  return topLevel.map((el, i) => ({
    source: "microdata" as const,
    path: `microdata[${i}]`,
    data: readItem($, el, new Set(), 0),
    context: "https://schema.org",
  }));
}

function readItem($: CheerioAPI, item: Element, visiting: Set<Element>, depth: number): JsonObject {
  visiting.add(item);
  const result: JsonObject = {};
  const types = (item.attribs.itemtype ?? "").split(/\s+/).filter(Boolean);
  if (types.length) result["@type"] = types.length === 1 ? types[0] : types;
  const roots: Element[] = [item];
  for (const id of (item.attribs.itemref ?? "").split(/\s+/).filter(Boolean)) {
    const ref = $(`[id="${id.replace(/"/g, '\\"')}"]`).get(0);
    if (ref) roots.push(ref);
  }
  const props: Element[] = [];
  // Depth-first in document order, without recursion (pages can nest deeper than the stack allows).
  for (const r of roots) {
    const stack: Array<{ el: Element; isRoot: boolean }> = [{ el: r, isRoot: r === item }];
    while (stack.length) {
      const { el, isRoot } = stack.pop()!;
      if (!isRoot && el.attribs.itemprop !== undefined) props.push(el);
      if (!isRoot && el.attribs.itemscope !== undefined) continue;
      const children = el.children.filter((c) => c.type === "tag") as Element[];
      for (let i = children.length - 1; i >= 0; i--) stack.push({ el: children[i]!, isRoot: false });
    }
  }
  for (const el of props) {
    // A cycle through itemref would recurse forever; drop the repeated item.
    if (visiting.has(el)) continue;
    // Items nested past 32 levels are read as text rather than followed.
    const value =
      el.attribs.itemscope !== undefined && depth < 32 ? readItem($, el, visiting, depth + 1) : readValue(el);
    for (const rawName of (el.attribs.itemprop ?? "").split(/\s+/).filter(Boolean)) {
      const name = rawName.replace(/^https?:\/\/(www\.)?schema\.org\//i, "");
      const existing = result[name];
      result[name] =
        existing === undefined ? value : Array.isArray(existing) ? [...existing, value] : [existing, value];
    }
  }
  visiting.delete(item);
  return result;
}

function readValue(el: Element): string {
  const a = el.attribs;
  switch (el.name.toLowerCase()) {
    case "meta":
      return a.content ?? "";
    case "a":
    case "link":
    case "area":
      return a.href ?? "";
    case "img":
    case "audio":
    case "video":
    case "source":
    case "iframe":
    case "embed":
    case "track":
      return a.src ?? "";
    case "object":
      return a.data ?? "";
    case "time":
      return a.datetime ?? textOf(el);
    case "data":
    case "meter":
      return a.value ?? "";
    default:
      return a.content ?? textOf(el);
  }
}

export function extractStructuredData($: CheerioAPI): Extraction {
  const jsonLd = extractJsonLd($);
  return {
    jsonLdBlocks: jsonLd.blocks,
    entities: [...jsonLd.entities, ...extractMicrodata($)],
    malformed: jsonLd.malformed,
  };
}
