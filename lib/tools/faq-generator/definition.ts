import { TOOL_TITLES } from "../titles";
import { defineTool } from "../types";
import { faqGeneratorInput, faqGeneratorResult } from "./schema";

export const faqGenerator = defineTool({
  name: "faq-generator",
  title: TOOL_TITLES["faq-generator"],
  summary: "8 to 10 question/answer pairs grounded in a page, with a ready-to-embed FAQPage JSON-LD block.",
  input: faqGeneratorInput,
  example: { url: "https://example.com/" },
  result: faqGeneratorResult,
  cost: () => 20,
  timeoutMs: 60_000,
  form: [
    { name: "url", kind: "url", label: "Page URL", required: true, placeholder: "https://example.com/" },
  ],
});
