import { z } from "zod";
import { backlinksOverviewResult } from "@/lib/webgraph/backlinks-schema";
import { hostname } from "../domain-schemas";
import { TOOL_TITLES } from "../titles";
import { defineTool } from "../types";

const backlinksOverviewInput = z
  .object({
    target: hostname,
    includeHistory: z.boolean({ error: "Must be true or false." }).default(false),
  })
  .strict();

export const backlinksOverview = defineTool({
  name: "backlinks-overview",
  title: TOOL_TITLES["backlinks-overview"],
  summary:
    "Referring domains and hosts, the strongest referring domains, rank and a 0–100 authority score of a domain, optionally per snapshot.",
  input: backlinksOverviewInput,
  example: { target: "example.com", includeHistory: false },
  result: backlinksOverviewResult,
  cost: () => 15,
  timeoutMs: 60_000,
  // Reads the imported web graph through the process's database.
  runsIn: "main",
  // lib/tools/backlinks-overview/availability.ts refuses the job before any charge when neither an imported
  // web graph nor DataForSEO Backlinks can answer.
  requires: [
    { env: "DATAFORSEO_LOGIN", label: "DataForSEO Backlinks (optional with an imported web graph)" },
    { env: "DATAFORSEO_PASSWORD", label: "DataForSEO Backlinks (optional with an imported web graph)" },
  ],
  form: [
    { name: "target", kind: "text", label: "Target domain", required: true, placeholder: "example.com" },
    { name: "includeHistory", kind: "checkbox", label: "Include history" },
  ],
});
