import { type ExtractedEntity, isObject, type JsonObject, readTypes } from "./extract";
import { findRule, isSchemaType } from "./schema-types";

export interface ValidatedItem {
  source: ExtractedEntity["source"];
  /** The item's first recognised type (the one its rule comes from is `ruleType`). */
  type: string;
  ruleType: string;
  path: string;
  nested: boolean;
  missingRequired: string[];
  missingRecommended: string[];
  /** Wrong value types, e.g. an FAQPage whose mainEntity is not a Question. */
  errors: string[];
}

/** Deeper JSON is not walked: no real markup nests this far, and hostile input must not exhaust the stack. */
export const MAX_JSON_DEPTH = 64;

export function isPresent(value: unknown): boolean {
  if (value === undefined || value === null) return false;
  if (typeof value === "string") return value.trim() !== "";
  if (Array.isArray(value)) return value.some(isPresent);
  return true;
}

/** A node holding only "@id" points at an item defined elsewhere in the page. */
function isReference(node: JsonObject): boolean {
  return typeof node["@id"] === "string" && Object.keys(node).every((k) => k === "@id");
}

export function indexById(entities: ExtractedEntity[]): Map<string, JsonObject> {
  const index = new Map<string, JsonObject>();
  const visit = (v: unknown, depth = 0) => {
    if (depth > MAX_JSON_DEPTH) return;
    if (Array.isArray(v)) {
      for (const x of v) visit(x, depth + 1);
      return;
    }
    if (!isObject(v)) return;
    if (typeof v["@id"] === "string" && !isReference(v)) index.set(v["@id"], v);
    for (const [k, child] of Object.entries(v)) if (k !== "@context") visit(child, depth + 1);
  };
  for (const e of entities) visit(e.data);
  return index;
}

/**
 * Validates every typed node of an entity (the entity itself and anything nested in it) against the rules
 * table. Nodes of types the table does not know are walked into but not reported.
 */
export function validateEntity(entity: ExtractedEntity, ids: Map<string, JsonObject>): ValidatedItem[] {
  const out: ValidatedItem[] = [];
  const walk = (node: JsonObject, path: string, nested: boolean, depth: number) => {
    if (depth > MAX_JSON_DEPTH) return;
    const types = readTypes(node);
    const match = types.map((t) => ({ type: t, found: findRule(t) })).find((m) => m.found);
    if (match?.found) {
      const { rule, ruleType } = match.found;
      const has = (p: string) => isPresent(node[p]);
      const missingRequired = [
        ...(rule.required ?? []).filter((p) => !has(p)),
        ...(nested ? [] : (rule.requiredWhenTopLevel ?? []).filter((p) => !has(p))),
        ...(rule.requiredAnyOf ?? []).filter((group) => !group.some(has)).map((group) => group.join(" or ")),
      ];
      const errors: string[] = [];
      for (const [prop, expected] of Object.entries(rule.expects ?? {})) {
        const values =
          node[prop] === undefined
            ? []
            : Array.isArray(node[prop])
              ? (node[prop] as unknown[])
              : [node[prop]];
        values.forEach((v, i) => {
          const target = isObject(v) && isReference(v) ? ids.get(v["@id"] as string) : v;
          if (isObject(v) && isReference(v) && !target) return;
          const valueTypes = isObject(target) ? readTypes(target) : [];
          if (!valueTypes.some((t) => expected.some((e) => isSchemaType(t, e)))) {
            const got = isObject(target) ? valueTypes.join("/") || "an untyped object" : `a ${typeof target}`;
            errors.push(
              `${prop}${values.length > 1 ? `[${i}]` : ""} should be ${expected.join(" or ")}, got ${got}`,
            );
          }
        });
      }
      out.push({
        source: entity.source,
        type: match.type,
        ruleType,
        path,
        nested,
        missingRequired,
        missingRecommended: (rule.recommended ?? []).filter((p) => !has(p)),
        errors,
      });
    }
    for (const [key, value] of Object.entries(node)) {
      if (key.startsWith("@")) continue;
      const children = Array.isArray(value) ? value : [value];
      children.forEach((child, i) => {
        if (isObject(child) && !isReference(child))
          walk(child, `${path} > ${key}${Array.isArray(value) ? `[${i}]` : ""}`, true, depth + 1);
      });
    }
  };
  walk(entity.data, entity.path, false, 0);
  return out;
}
