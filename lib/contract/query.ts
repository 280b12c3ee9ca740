import { z } from "zod";

/** The bounds of an integer query parameter, kept with its schema so other edges can derive them. */
export interface IntBounds {
  min: number;
  max: number;
  fallback: number;
}

const intBounds = z.registry<IntBounds>();

/** Integer query parameter with bounds; the spec's limits are enforced, never silently clamped. */
export const queryInt = (min: number, max: number, fallback: number) => {
  const schema = z
    .string()
    .regex(/^\d+$/, "Must be a whole number.")
    .transform(Number)
    .pipe(z.number().int().min(min).max(max))
    .optional()
    .transform((v) => v ?? fallback);
  intBounds.add(schema, { min, max, fallback });
  return schema;
};

/** The bounds a query parameter was declared with (queryInt), or undefined for other parameters. */
const readIntBounds = (schema: z.ZodType): IntBounds | undefined => intBounds.get(schema);

/**
 * The same parameters as typed JSON arguments (MCP tools take numbers as numbers): each queryInt
 * becomes an integer with the same bounds, default and description; other fields stay as they are.
 */
export function jsonArgsFromQuery<S extends z.ZodObject>(query: S) {
  const shape: Record<string, z.ZodType> = {};
  for (const [key, field] of Object.entries(query.shape as Record<string, z.ZodType>)) {
    const bounds = readIntBounds(field);
    if (!bounds) {
      shape[key] = field;
      continue;
    }
    const int = z.number().int().min(bounds.min).max(bounds.max).default(bounds.fallback);
    shape[key] = field.description ? int.describe(field.description) : int;
  }
  return z.object(shape).strict();
}
