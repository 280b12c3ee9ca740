import { TOOL_NAMES, TOOLS, type ToolName } from "@/lib/tools/catalog";

/** The page and domain the examples use; the Postman collection turns them into {{siteUrl}} and {{domain}}. */
export const EXAMPLE_SITE_URL = "https://example.com/";
export const EXAMPLE_DOMAIN = "example.com";
/** A page of the registered domain (scheduled audits take only those); the Postman collection makes it a page of {{domain}}. */
export const EXAMPLE_DOMAIN_PAGE = "https://example.com/pricing";
/** Where the webhook examples deliver; the Postman collection turns it into {{webhookUrl}}. */
export const EXAMPLE_WEBHOOK_URL = "https://example.com/webhooks";
/** The name of a new key pair in the examples; the Postman collection makes it unique per run. */
export const EXAMPLE_KEY_NAME = "tracking snippet";

/** A valid body for every tool endpoint: each definition's own example (a test POSTs each). */
export const TOOL_EXAMPLES = Object.fromEntries(TOOL_NAMES.map((n) => [n, TOOLS[n].example])) as Record<
  ToolName,
  Record<string, unknown>
>;

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
