import type { AnyTool, FieldSpec } from "./types";

export type FormValues = Record<string, string | string[] | boolean>;

/** A form's first state: selects at their default, every engine ticked, the rest empty. */
export function initialFormValues(fields: readonly FieldSpec[]): FormValues {
  const v: FormValues = {};
  for (const f of fields) {
    if (f.kind === "select") v[f.name] = f.default;
    else if (f.kind === "checkboxes") v[f.name] = [...f.options];
    else if (f.kind === "checkbox") v[f.name] = false;
    else v[f.name] = "";
  }
  return v;
}

/** The request body a launcher form describes: empty optional fields are left out, as an API client would. */
export function formToInput(tool: AnyTool, values: FormValues): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const field of tool.form) {
    const value = values[field.name];
    if (field.kind === "checkbox") {
      if (value === true) body[field.name] = true;
    } else if (field.kind === "checkboxes") {
      if (Array.isArray(value) && value.length > 0) body[field.name] = value;
    } else if (field.kind === "list") {
      const items = String(value ?? "")
        .split(/[\n,]/)
        .map((s) => s.trim())
        .filter(Boolean);
      if (items.length > 0) body[field.name] = items;
    } else if (typeof value === "string" && value.trim() !== "") {
      body[field.name] = field.kind === "select" ? value : value.trim();
    }
  }
  return body;
}

/**
 * The credits a (possibly unfinished) body would cost, by the tool's own cost(): fields that do not
 * validate yet are taken from the tool's example, so the price shows while the form is being filled.
 */
export function estimateCost(tool: AnyTool, raw: Record<string, unknown>): number {
  const example = tool.example as Record<string, unknown>;
  let candidate: Record<string, unknown> = { ...raw };
  for (let attempt = 0; attempt < 4; attempt++) {
    const parsed = tool.input.safeParse(candidate);
    if (parsed.success) return tool.cost(parsed.data);
    candidate = { ...candidate };
    for (const issue of parsed.error.issues) {
      const key = issue.path[0];
      if (typeof key !== "string") continue;
      if (key in example) candidate[key] = example[key];
      else delete candidate[key];
    }
  }
  return tool.cost(tool.input.parse(example));
}
