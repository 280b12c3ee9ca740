import { z } from "zod";
import { caseInsensitiveEnum } from "../domain-schemas";
import { httpUrl } from "../shared-schemas";
import { defineTool } from "../types";
import { notBuiltYet } from "../unavailable";

export const STRATEGIES = ["mobile", "desktop"] as const;

export const coreWebVitalsInput = z
  .object({
    url: httpUrl,
    strategy: caseInsensitiveEnum(STRATEGIES, "Must be mobile or desktop.").default("mobile"),
  })
  .strict();

export const coreWebVitals = defineTool({
  name: "core-web-vitals",
  title: "Core Web Vitals",
  summary: "Core Web Vitals (LCP, INP, CLS) and an overall performance score for a URL.",
  input: coreWebVitalsInput,
  example: { url: "https://example.com/", strategy: "mobile" },
  cost: () => 25,
  ...notBuiltYet("Core Web Vitals"),
  form: [
    { name: "url", kind: "url", label: "Page URL", required: true, placeholder: "https://example.com/" },
    { name: "strategy", kind: "select", label: "Strategy", options: STRATEGIES, default: "mobile" },
  ],
});
