import { TOOL_TITLES } from "../titles";
import { defineTool } from "../types";
import { llmsTxtInput, llmsTxtResult } from "./schema";

export const llmsTxt = defineTool({
  name: "llms-txt",
  title: TOOL_TITLES["llms-txt"],
  summary: "A generated llms.txt for a site, from its homepage or a key page.",
  input: llmsTxtInput,
  example: { url: "https://example.com/" },
  result: llmsTxtResult,
  cost: () => 20,
  timeoutMs: 90_000,
  form: [
    {
      name: "url",
      kind: "url",
      label: "Homepage or key page URL",
      required: true,
      placeholder: "https://example.com/",
    },
  ],
});
