import { z } from "zod";
import {
  checkEngines,
  competitors,
  ENGINE_REQUIREMENTS,
  ENGINES,
  engine,
  hostname,
  prompt,
} from "../domain-schemas";
import { defineTool } from "../types";
import { notBuiltYet } from "../unavailable";

export const brandVisibilityInput = z
  .object({
    prompt,
    domain: hostname,
    engine: engine.default("ChatGPT"),
    competitors: competitors.optional(),
  })
  .strict();

export const brandVisibility = defineTool({
  name: "brand-visibility",
  title: "Brand visibility",
  summary: "How one AI engine answers a prompt about your brand: mention position, sentiment, citations.",
  input: brandVisibilityInput,
  example: {
    prompt: "What are the best tools to track AI search visibility?",
    domain: "example.com",
    engine: "ChatGPT",
    competitors: ["competitor.example"],
  },
  cost: () => 100,
  ...notBuiltYet("brand visibility"),
  requires: ENGINE_REQUIREMENTS,
  availability: (input, env) => checkEngines([input.engine], env),
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
