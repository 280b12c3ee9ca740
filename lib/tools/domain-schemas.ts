import { z } from "zod";
import { normalizeHostname } from "@/lib/accounts/domains";

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

export const ENGINES = ["ChatGPT", "Perplexity", "Claude", "Gemini"] as const;
export type Engine = (typeof ENGINES)[number];
export const engine = z.enum(ENGINES, { error: `Must be one of ${ENGINES.join(", ")}.` });

export const prompt = z
  .string({ error: "Must be a string." })
  .trim()
  .min(1, { error: "Must not be empty." })
  .max(2000, { error: "Must be at most 2000 characters." });

export const competitors = z
  .array(hostname, { error: "Must be an array of domains." })
  .max(5, { error: "At most 5 competitors." })
  .refine((list) => new Set(list).size === list.length, { error: "Competitors must be unique." });
