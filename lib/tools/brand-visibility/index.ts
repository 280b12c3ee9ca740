import { z } from "zod";
import { competitors, engine, hostname, prompt } from "../domain-schemas";
import { unavailableTool } from "../unavailable";

export const brandVisibilityInput = z
  .object({
    prompt,
    domain: hostname,
    engine: engine.default("ChatGPT"),
    competitors: competitors.optional(),
  })
  .strict();

export const brandVisibility = unavailableTool({
  name: "brand-visibility",
  summary: "How one AI engine answers a prompt about your brand: mention position, sentiment, citations.",
  input: brandVisibilityInput,
  cost: () => 100,
});
