import { z } from "zod";
import { normalizeHostname } from "@/lib/hostname";

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

export const ENGINES = ["ChatGPT", "Perplexity", "Claude", "Gemini"] as const;
export type Engine = (typeof ENGINES)[number];
export const engine = caseInsensitiveEnum(ENGINES, `Must be one of ${ENGINES.join(", ")}.`);

/** The environment variable that configures each AI engine's provider. */
export const ENGINE_ENV: Record<Engine, string> = {
  ChatGPT: "OPENAI_API_KEY",
  Perplexity: "PERPLEXITY_API_KEY",
  Claude: "ANTHROPIC_API_KEY",
  Gemini: "GEMINI_API_KEY",
};

export const ENGINE_REQUIREMENTS = ENGINES.map((e) => ({ env: ENGINE_ENV[e], label: e }));

/** Refuses engines whose provider key is not set, naming the configured ones and the variable to set. */
export function checkEngines(
  requested: readonly Engine[],
  env: Readonly<Record<string, string | undefined>>,
) {
  const configured = ENGINES.filter((e) => Boolean(env[ENGINE_ENV[e]]));
  const missing = requested.filter((e) => !configured.includes(e));
  if (missing.length === 0) return { ok: true as const };
  const set = missing.map((e) => `${ENGINE_ENV[e]} for ${e}`).join(", ");
  const have = configured.length
    ? `Configured engines: ${configured.join(", ")}.`
    : "No engine is configured.";
  return {
    ok: false as const,
    reason: `${missing.join(", ")} ${missing.length === 1 ? "is" : "are"} not configured on this server. ${have} The operator sets ${set}.`,
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
