import {
  costDomainAuthority,
  domainAuthorityInput,
  domainAuthorityResult,
} from "@/lib/webgraph/backlinks-schema";
import { TOOL_TITLES } from "../titles";
import { defineTool } from "../types";

export const domainAuthority = defineTool({
  name: "domain-authority",
  title: TOOL_TITLES["domain-authority"],
  summary: "The 0–100 authority score, ranks and referring-domain count of up to 100 domains.",
  input: domainAuthorityInput,
  example: { domains: ["example.com", "example.org"] },
  result: domainAuthorityResult,
  cost: costDomainAuthority,
  pricing: "1 credit per distinct domain: 100 domains cost 100 credits",
  timeoutMs: 60_000,
  // Reads the imported web graph through the process's database.
  runsIn: "main",
  // lib/tools/domain-authority/availability.ts refuses the job before any charge when neither an imported
  // web graph nor DataForSEO Backlinks can answer.
  requires: [
    { env: "DATAFORSEO_LOGIN", label: "DataForSEO Backlinks (optional with an imported web graph)" },
    { env: "DATAFORSEO_PASSWORD", label: "DataForSEO Backlinks (optional with an imported web graph)" },
  ],
  form: [
    { name: "domains", kind: "list", label: "Domains", hint: "One per line, up to 100.", required: true },
  ],
});
