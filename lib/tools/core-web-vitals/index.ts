import { z } from "zod";
import { httpUrl } from "../shared-schemas";
import { unavailableTool } from "../unavailable";

export const coreWebVitalsInput = z
  .object({
    url: httpUrl,
    strategy: z.enum(["mobile", "desktop"], { error: "Must be mobile or desktop." }).default("mobile"),
  })
  .strict();

export const coreWebVitals = unavailableTool({
  name: "core-web-vitals",
  summary: "Core Web Vitals (LCP, INP, CLS) and an overall performance score for a URL.",
  input: coreWebVitalsInput,
  cost: () => 25,
});
