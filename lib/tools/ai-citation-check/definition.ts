import { z } from "zod";
import { aiCitationCheckResult } from "@/lib/ai-visibility/schemas";
import { ENGINE_REQUIREMENTS } from "@/lib/providers/engines";
import { competitors, ENGINES, engine, engineAvailability, hostname, prompt } from "../domain-schemas";
import { COST_PER_ENGINE, ENGINE_CHECK_TIMEOUT_MS } from "../shared/engine-check";
import { TOOL_TITLES } from "../titles";
import { defineTool } from "../types";

const aiCitationCheckInput = z
  .object({
    prompt,
    domain: hostname,
    engines: z
      .array(engine, { error: "Must be an array of engine names." })
      .min(1, { error: "Give at least one engine, or omit engines for all four." })
      .max(ENGINES.length, { error: `At most ${ENGINES.length} engines.` })
      .refine((list) => new Set(list).size === list.length, { error: "Engines must be unique." })
      .default([...ENGINES]),
    competitors: competitors.optional(),
  })
  .strict();

export const aiCitationCheck = defineTool({
  name: "ai-citation-check",
  title: TOOL_TITLES["ai-citation-check"],
  summary: `Whether ${ENGINES.join(", ").replace(/, ([^,]+)$/, " and $1")} cite or mention a domain for a prompt, with each engine's cited sources kept apart from the results it only read (${COST_PER_ENGINE} credits per engine).`,
  input: aiCitationCheckInput,
  example: {
    prompt: "Which services help websites get cited by AI answer engines?",
    domain: "example.com",
    engines: ["ChatGPT", "Perplexity"],
    competitors: ["competitor.example"],
  },
  cost: (input) => COST_PER_ENGINE * input.engines.length,
  pricing: `${COST_PER_ENGINE} credits per engine (${COST_PER_ENGINE * ENGINES.length} for all ${ENGINES.length === 4 ? "four" : ENGINES.length}, the default)`,
  result: aiCitationCheckResult,
  // Engines run in parallel, each with up to four attempts (Retry-After honoured): room for a slow engine's retries.
  timeoutMs: ENGINE_CHECK_TIMEOUT_MS,
  requires: ENGINE_REQUIREMENTS,
  availability: (input, env) => engineAvailability(input.engines, env),
  form: [
    { name: "prompt", kind: "textarea", label: "Prompt", required: true, placeholder: "Best tools for …" },
    { name: "domain", kind: "text", label: "Your domain", required: true, placeholder: "example.com" },
    { name: "engines", kind: "checkboxes", label: "Engines", options: ENGINES },
    {
      name: "competitors",
      kind: "list",
      label: "Competitors",
      hint: "Up to 5 domains, one per line.",
      required: false,
    },
  ],
});

export type AiCitationCheckInput = z.output<typeof aiCitationCheckInput>;
