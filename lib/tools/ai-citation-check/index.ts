import { z } from "zod";
import { competitors, ENGINES, engine, hostname, prompt } from "../domain-schemas";
import { unavailableTool } from "../unavailable";

export const COST_PER_ENGINE = 100;

export const aiCitationCheckInput = z
  .object({
    prompt,
    domain: hostname,
    engines: z
      .array(engine, { error: "Must be an array of engine names." })
      .min(1, { error: "Give at least one engine, or omit engines for all four." })
      .max(4, { error: "At most 4 engines." })
      .refine((list) => new Set(list).size === list.length, { error: "Engines must be unique." })
      .default([...ENGINES]),
    competitors: competitors.optional(),
  })
  .strict();

export const aiCitationCheck = unavailableTool({
  name: "ai-citation-check",
  summary:
    "Whether ChatGPT, Perplexity, Claude and Gemini cite or mention a domain for a prompt (100 credits per engine).",
  input: aiCitationCheckInput,
  cost: (input) => COST_PER_ENGINE * input.engines.length,
});
