import { z } from "zod";
import { normalizeHostname } from "@/lib/hostname";
import { ENGINE_NAMES, type EngineName } from "@/lib/providers/engine-types";
import { checkEngineAvailability } from "@/lib/providers/engines";
import type { Availability, Env } from "./types";

/** A domain or hostname (≤ 253 characters), normalised to lower-case ASCII; a pasted URL is reduced to its host. */
export const hostname = z
  .string({ error: "Must be a string." })
  .max(253, { error: "Must be at most 253 characters." })
  .transform((value, ctx) => {
    const host = normalizeHostname(value);
    if (!host) {
      ctx.addIssue({ code: "custom", message: "Must be a hostname such as example.com." });
      return z.NEVER;
    }
    return host;
  });

/**
 * An enum that accepts any letter case ("chatgpt", "MOBILE") and answers the canonical spelling.
 * The JSON Schema still lists the canonical values.
 */
export function caseInsensitiveEnum<const T extends readonly [string, ...string[]]>(
  values: T,
  error: string,
) {
  const canonical = new Map(values.map((v) => [v.toLowerCase(), v]));
  return z.preprocess(
    (value) => (typeof value === "string" ? (canonical.get(value.toLowerCase()) ?? value) : value),
    z.enum(values, { error }),
  );
}

/** The engines come from the providers' configuration, the one source of what each engine needs. */
export const ENGINES = ENGINE_NAMES;
export type Engine = EngineName;
export const engine = caseInsensitiveEnum(ENGINES, `Must be one of ${ENGINES.join(", ")}.`);

/** The engines' availability as a tool states it: the 400 carries the configured engines and what to set. */
export function engineAvailability(wanted: readonly Engine[], env: Env): Availability {
  const checked = checkEngineAvailability(wanted, env);
  if (checked.ok) return checked;
  return {
    ok: false,
    reason: checked.reason,
    details: { configured: checked.configured, missing: checked.missing },
  };
}

export const prompt = z
  .string({ error: "Must be a string." })
  .trim()
  .min(1, { error: "Must not be empty." })
  .max(2000, { error: "Must be at most 2000 characters." });

export const competitors = z
  .array(hostname, { error: "Must be an array of domains." })
  .max(5, { error: "At most 5 competitors." })
  .refine((list) => new Set(list).size === list.length, { error: "Competitors must be unique." });
