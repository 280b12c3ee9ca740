import { z } from "zod";

export type JsonSchema = Record<string, unknown>;

/**
 * JSON Schema (draft 2020-12, the dialect of OpenAPI 3.1 and MCP tool schemas) from a zod schema.
 * `io: "input"` describes what a client may send (defaults optional); "output" what we answer.
 */
export function toJsonSchema(schema: z.ZodType, io: "input" | "output" = "output"): JsonSchema {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, {
    io,
    target: "draft-2020-12",
    unrepresentable: "any",
    // zod leaves out the default of a field whose items are preprocessed (the case-insensitive enums) when it
    // describes the input side; clients still need to read it.
    override: (ctx) => {
      const def = (ctx.zodSchema as unknown as { _zod: { def: { type: string; defaultValue?: unknown } } })
        ._zod.def;
      if (def.type === "default" && !("default" in ctx.jsonSchema)) {
        ctx.jsonSchema.default = JSON.parse(JSON.stringify(def.defaultValue));
      }
    },
  }) as JsonSchema;
  return rest;
}
