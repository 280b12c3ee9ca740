import { z } from "zod";
import { aiAccessResult } from "@/lib/analysis/ai-access/schema";
import { httpUrl } from "../shared-schemas";
import { TOOL_TITLES } from "../titles";
import { defineTool } from "../types";

const aiAccessInput = z.object({ url: httpUrl }).strict();
export type AiAccessInput = z.infer<typeof aiAccessInput>;

export const aiAccess = defineTool({
  name: "ai-access",
  title: TOOL_TITLES["ai-access"],
  summary:
    "Which AI operators may read the site, for training, search indexing and user-requested fetches, and what allows or blocks each: robots.txt, Content Signals, AI usage preferences, robots directives, the server's answer to each crawler, llms.txt.",
  input: aiAccessInput,
  example: { url: "https://example.com/" },
  result: aiAccessResult,
  cost: () => 5,
  timeoutMs: 60_000,
  // Reads the account's tracked bot visits for the domain while it runs (read-only, bounded fetches).
  runsIn: "main",
  form: [
    { name: "url", kind: "url", label: "Site URL", required: true, placeholder: "https://example.com/" },
  ],
});
