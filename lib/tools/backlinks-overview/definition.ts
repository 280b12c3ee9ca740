import { z } from "zod";
import { hostname } from "../domain-schemas";
import { defineTool } from "../types";
import { notBuiltYet } from "../unavailable";

export const backlinksOverviewInput = z
  .object({
    target: hostname,
    includeHistory: z.boolean({ error: "Must be true or false." }).default(false),
  })
  .strict();

export const backlinksOverview = defineTool({
  name: "backlinks-overview",
  title: "Backlinks overview",
  summary: "Backlink profile of a target domain, optionally with history.",
  input: backlinksOverviewInput,
  example: { target: "example.com", includeHistory: false },
  cost: () => 15,
  ...notBuiltYet("backlinks"),
  form: [
    { name: "target", kind: "text", label: "Target domain", required: true, placeholder: "example.com" },
    { name: "includeHistory", kind: "checkbox", label: "Include history" },
  ],
});
