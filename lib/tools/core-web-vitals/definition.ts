import { z } from "zod";
import { coreWebVitalsResult } from "@/lib/cwv/result-schema";
import { caseInsensitiveEnum } from "../domain-schemas";
import { httpUrl } from "../shared-schemas";
import { TOOL_TITLES } from "../titles";
import { defineTool } from "../types";

const STRATEGIES = ["mobile", "desktop"] as const;

/**
 * Not a setting: a fact the server checks itself (lib/tools/server-env.ts) each time a job is created,
 * "true" when an executable Chromium is installed at CHROME_PATH, unset otherwise.
 */
export const CHROME_AVAILABLE = "CHROME_AVAILABLE";

export const coreWebVitalsInput = z
  .object({
    url: httpUrl,
    strategy: caseInsensitiveEnum(STRATEGIES, "Must be mobile or desktop.").default("mobile"),
  })
  .strict();

export const coreWebVitals = defineTool({
  name: "core-web-vitals",
  title: TOOL_TITLES["core-web-vitals"],
  summary: "Core Web Vitals (LCP, INP, CLS) and an overall performance score for a URL.",
  input: coreWebVitalsInput,
  example: { url: "https://example.com/", strategy: "mobile" },
  result: coreWebVitalsResult,
  cost: () => 25,
  // A lab run may take 90 s (CWV_RUN_TIMEOUT_MS), after waiting for this worker's browser slot.
  timeoutMs: 150_000,
  requires: [
    {
      env: CHROME_AVAILABLE,
      label: "Chromium installed at CHROME_PATH (default /usr/bin/chromium)",
      detected: true,
    },
  ],
  availability: (_input, env) =>
    env[CHROME_AVAILABLE] === "true"
      ? { ok: true }
      : {
          ok: false,
          reason:
            "Core Web Vitals need Chromium, which is not installed on this server (CHROME_PATH, default /usr/bin/chromium). Nothing was charged.",
        },
  form: [
    { name: "url", kind: "url", label: "Page URL", required: true, placeholder: "https://example.com/" },
    { name: "strategy", kind: "select", label: "Strategy", options: STRATEGIES, default: "mobile" },
  ],
});
