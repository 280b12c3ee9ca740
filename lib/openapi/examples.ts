import type { ToolName } from "@/lib/tools/types";

/** The page and domain the examples use; the Postman collection turns them into {{siteUrl}} and {{domain}}. */
export const EXAMPLE_SITE_URL = "https://example.com/";
export const EXAMPLE_DOMAIN = "example.com";

/** A valid body for every tool endpoint (a test parses each with the tool's schema and POSTs it). */
export const TOOL_EXAMPLES: Record<ToolName, Record<string, unknown>> = {
  audits: { url: EXAMPLE_SITE_URL },
  "core-web-vitals": { url: EXAMPLE_SITE_URL, strategy: "mobile" },
  "keyword-research": { keywords: ["ai search optimization", "llms.txt"] },
  "brand-visibility": {
    prompt: "What are the best tools to track AI search visibility?",
    domain: EXAMPLE_DOMAIN,
    engine: "ChatGPT",
    competitors: ["competitor.example"],
  },
  "faq-generator": { url: EXAMPLE_SITE_URL },
  "llms-txt": { url: EXAMPLE_SITE_URL },
  "ai-citation-check": {
    prompt: "Which services help websites get cited by AI answer engines?",
    domain: EXAMPLE_DOMAIN,
    engines: ["ChatGPT", "Perplexity"],
    competitors: ["competitor.example"],
  },
  "seo-aeo-geo-audit": { url: EXAMPLE_SITE_URL },
  "backlinks-overview": { target: EXAMPLE_DOMAIN, includeHistory: false },
};

/** One bot visit, as a server middleware would send it. */
export function exampleTrackingEvents(now = new Date()) {
  return {
    events: [
      {
        id: "evt_0001",
        domain: EXAMPLE_DOMAIN,
        path: "/pricing",
        userAgent:
          "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; GPTBot/1.2; +https://openai.com/gptbot",
        ip: "20.171.207.1",
        status: 200,
        timestamp: now.toISOString(),
      },
    ],
  };
}
