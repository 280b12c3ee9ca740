import { z } from "zod";
import { hostname } from "../domain-schemas";
import { unavailableTool } from "../unavailable";

export const backlinksOverviewInput = z
  .object({
    target: hostname,
    includeHistory: z.boolean({ error: "Must be true or false." }).default(false),
  })
  .strict();

export const backlinksOverview = unavailableTool({
  name: "backlinks-overview",
  summary: "Backlink profile of a target domain, optionally with history.",
  input: backlinksOverviewInput,
  cost: () => 15,
});
