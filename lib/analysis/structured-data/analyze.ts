import { load } from "cheerio";
import { textOf } from "../blocks";
import { clip, createCheck, plural } from "../check";
import type { Check, ParsedPage } from "../types";
import {
  type ExtractedEntity,
  extractStructuredData,
  isObject,
  type JsonObject,
  type MalformedBlock,
  readTypes,
} from "./extract";
import { isSchemaType } from "./schema-types";
import { indexById, isPresent, MAX_JSON_DEPTH, type ValidatedItem, validateEntity } from "./validate";

export interface StructuredDataReport {
  jsonLdBlocks: number;
  /** Top-level items (JSON-LD objects, @graph members, microdata items). */
  entities: ExtractedEntity[];
  /** Every typed node the rules table knows, top-level or nested, with what it lacks. */
  items: ValidatedItem[];
  malformed: MalformedBlock[];
  /** Distinct top-level types, e.g. ["Article", "Organization"]. */
  types: string[];
  checks: Check[];
}

function hasSchemaOrgContext(context: unknown): boolean {
  if (typeof context === "string") return /^https?:\/\/(www\.)?schema\.org\/?$/i.test(context.trim());
  if (Array.isArray(context)) return context.some(hasSchemaOrgContext);
  if (isObject(context)) return hasSchemaOrgContext(context["@vocab"]);
  return false;
}

export function analyzeStructuredData(page: ParsedPage): StructuredDataReport {
  const extraction = extractStructuredData(page.$);
  const ids = indexById(extraction.entities);
  const items = extraction.entities.flatMap((e) => validateEntity(e, ids));
  const types = [...new Set(extraction.entities.flatMap((e) => readTypes(e.data)))];
  const checks: Check[] = [
    checkPresence(extraction.entities, types, extraction.malformed.length),
    checkSyntax(extraction.jsonLdBlocks, extraction.malformed),
    checkContext(extraction.entities),
    checkRequired(items),
    checkRecommended(items),
  ];
  return {
    jsonLdBlocks: extraction.jsonLdBlocks,
    entities: extraction.entities,
    items,
    malformed: extraction.malformed,
    types,
    checks,
  };
}

function checkPresence(entities: ExtractedEntity[], types: string[], malformed: number): Check {
  if (entities.length === 0) {
    const why = malformed ? " (the JSON-LD present could not be parsed)" : "";
    return createCheck(
      "structured-data.present",
      "structured-data",
      "warn",
      `No usable structured data${why}. Describe the page with schema.org JSON-LD (e.g. Article, Product, Organization) so search and answer engines understand it.`,
      [],
    );
  }
  return createCheck(
    "structured-data.present",
    "structured-data",
    "pass",
    `Found ${plural(entities.length, "structured data item")}: ${types.join(", ") || "untyped"}.`,
    entities.map((e) => `${e.path}: ${readTypes(e.data).join("/") || "(no @type)"}`),
  );
}

function checkSyntax(blocks: number, malformed: MalformedBlock[]): Check {
  if (malformed.length) {
    return createCheck(
      "structured-data.json-ld-syntax",
      "structured-data",
      "fail",
      `${plural(malformed.length, "JSON-LD block is", "JSON-LD blocks are")} not valid JSON and will be ignored entirely. Fix the syntax (trailing commas, unescaped quotes, comments).`,
      malformed.map((m) => `json-ld[${m.index}]: ${m.error}${m.snippet ? ` — ${m.snippet}` : ""}`),
    );
  }
  return createCheck(
    "structured-data.json-ld-syntax",
    "structured-data",
    "pass",
    blocks ? `JSON-LD parses (${plural(blocks, "block")}).` : "No JSON-LD blocks to parse.",
    [],
  );
}

function checkContext(entities: ExtractedEntity[]): Check {
  const bad = entities.filter((e) => e.source === "json-ld" && !hasSchemaOrgContext(e.context));
  if (bad.length) {
    return createCheck(
      "structured-data.context",
      "structured-data",
      "fail",
      `${plural(bad.length, "JSON-LD item lacks", "JSON-LD items lack")} "@context": "https://schema.org", so consumers cannot tell what the types mean. Add it.`,
      bad.map((e) => `${e.path}: @context ${JSON.stringify(e.context) ?? "(absent)"}`),
    );
  }
  return createCheck(
    "structured-data.context",
    "structured-data",
    "pass",
    "JSON-LD items declare the schema.org context.",
    [],
  );
}

const describeItem = (i: ValidatedItem) =>
  `${i.type}${i.type !== i.ruleType ? ` (as ${i.ruleType})` : ""} at ${i.path}`;

function checkRequired(items: ValidatedItem[]): Check {
  const broken = items.filter((i) => i.missingRequired.length || i.errors.length);
  if (broken.length) {
    const evidence = broken.map((i) => {
      const parts = [
        ...(i.missingRequired.length ? [`missing ${i.missingRequired.join(", ")}`] : []),
        ...i.errors,
      ];
      return `${describeItem(i)}: ${parts.join("; ")}`;
    });
    return createCheck(
      "structured-data.required",
      "structured-data",
      "fail",
      `${plural(broken.length, "structured data item is", "structured data items are")} missing required properties or using wrong types, which makes them ineligible for rich results. Fix what is listed.`,
      evidence,
    );
  }
  return createCheck(
    "structured-data.required",
    "structured-data",
    "pass",
    items.length
      ? `Every validated item has its required properties (${plural(items.length, "item")}).`
      : "No items of types this validator checks.",
    [],
  );
}

function checkRecommended(items: ValidatedItem[]): Check {
  const partial = items.filter((i) => i.missingRecommended.length);
  if (partial.length) {
    return createCheck(
      "structured-data.recommended",
      "structured-data",
      "warn",
      "Some items lack recommended properties; adding them gives engines more to show and cite.",
      partial.map((i) => `${describeItem(i)}: add ${i.missingRecommended.join(", ")}`),
    );
  }
  return createCheck(
    "structured-data.recommended",
    "structured-data",
    "pass",
    items.length ? "Items carry the recommended properties." : "No items of types this validator checks.",
    [],
  );
}

function findNodes(entities: ExtractedEntity[], match: (node: JsonObject) => boolean): JsonObject[] {
  const found: JsonObject[] = [];
  const visit = (v: unknown, depth = 0) => {
    if (depth > MAX_JSON_DEPTH) return;
    if (Array.isArray(v)) {
      for (const x of v) visit(x, depth + 1);
      return;
    }
    if (!isObject(v)) return;
    if (match(v)) found.push(v);
    for (const [k, child] of Object.entries(v)) if (k !== "@context") visit(child, depth + 1);
  };
  for (const e of entities) visit(e.data);
  return found;
}

/** Every node (top-level or nested) whose type is `type` or a subtype of it. */
export function findTypedNodes(entities: ExtractedEntity[], type: string): JsonObject[] {
  return findNodes(entities, (n) => readTypes(n).some((t) => isSchemaType(t, type)));
}

export function findNodesWithProperty(entities: ExtractedEntity[], prop: string): JsonObject[] {
  return findNodes(entities, (n) => isPresent(n[prop]));
}

/** Plain text of a schema.org text value (Answer.text may hold HTML). */
export function readText(value: unknown): string {
  if (typeof value === "string") {
    const text = /[<&]/.test(value) ? textOf(load(value, null, false).root().get(0)!) : value;
    return clip(text, 5000);
  }
  if (Array.isArray(value)) return readText(value[0]);
  if (isObject(value)) return readText(value.text ?? value.name);
  return "";
}
