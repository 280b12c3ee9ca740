import { z } from "zod";
import { brandVisibilityResult } from "@/lib/ai-visibility/schemas";
import { ENGINE_REQUIREMENTS } from "@/lib/providers/engines";
import { competitors, ENGINES, engine, engineAvailability, hostname, prompt } from "../domain-schemas";
import { COST_PER_ENGINE, ENGINE_CHECK_TIMEOUT_MS } from "../shared/engine-check";
import { TOOL_TITLES } from "../titles";
import { defineTool } from "../types";

const brandVisibilityInput = z
  .object({
    prompt,
    domain: hostname,
    engine: engine.default("ChatGPT"),
    competitors: competitors.optional(),
  })
  .strict();

export const brandVisibility = defineTool({
  name: "brand-visibility",
  title: TOOL_TITLES["brand-visibility"],
  summary:
    "How one AI engine answers a prompt about your brand: mention position, sentiment (with the method that judged it), the sources it cites, the results it read without citing, and its searches.",
  input: brandVisibilityInput,
  example: {
    prompt: "What are the best tools to track AI search visibility?",
    domain: "example.com",
    engine: "ChatGPT",
    competitors: ["competitor.example"],
  },
  cost: () => COST_PER_ENGINE,
  result: brandVisibilityResult,
  timeoutMs: ENGINE_CHECK_TIMEOUT_MS,
  requires: ENGINE_REQUIREMENTS,
  availability: (input, env) => engineAvailability([input.engine], env),
  form: [
    { name: "prompt", kind: "textarea", label: "Prompt", required: true, placeholder: "Best tools for …" },
    { name: "domain", kind: "text", label: "Your domain", required: true, placeholder: "example.com" },
    { name: "engine", kind: "select", label: "Engine", options: ENGINES, default: "ChatGPT" },
    {
      name: "competitors",
      kind: "list",
      label: "Competitors",
      hint: "Up to 5 domains, one per line.",
      required: false,
    },
  ],
});

export type BrandVisibilityInput = z.output<typeof brandVisibilityInput>;
