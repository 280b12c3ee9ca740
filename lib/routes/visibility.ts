import {
  enginesResult,
  VISIBILITY_DAYS,
  visibilityQuery,
  visibilityResult,
} from "@/lib/ai-visibility/api-schemas";
import { defineRoute } from "./contract";
import { EXAMPLE_DOMAIN } from "./examples";

/** GET /engines: the AI engines, whether each is configured on this server, and its model (free). */
export const listEnginesRoute = defineRoute({
  method: "get",
  path: "/engines",
  operationId: "listEngines",
  tag: "AI visibility",
  summary: "The AI engines and whether each is configured here",
  description:
    "ChatGPT, Perplexity, Claude and Gemini, each with whether this server holds its provider's key (the key itself is never shown) and the model it is asked with. An engine that is not configured is refused by /ai-citation-check and /brand-visibility with 400 `VALIDATION_ERROR` before any charge. Free.",
  success: {
    status: 200,
    description: "The engines.",
    data: { name: "Engines", schema: enginesResult },
  },
  errors: [],
});

/** GET /visibility?domain=&days=: AI-engine citation and mention rates of a registered domain (free). */
export const getVisibilityRoute = defineRoute({
  method: "get",
  path: "/visibility",
  operationId: "getVisibility",
  tag: "AI visibility",
  summary: "AI-engine citation and mention rates of a registered domain over time",
  description: `What the completed /ai-citation-check and /brand-visibility jobs of the account observed about a domain registered on it: per engine and overall, the share of answers that cited the domain and the share that mentioned it, per UTC day over the last \`days\` (today included). Observations are kept 13 months; \`days\` above ${VISIBILITY_DAYS.max} is 400, never clamped. A domain not registered on the account is 403 \`FORBIDDEN_SCOPE\`. Free.`,
  query: visibilityQuery,
  queryExample: { domain: EXAMPLE_DOMAIN, days: String(VISIBILITY_DAYS.default) },
  success: {
    status: 200,
    description: "Citation and mention rates.",
    data: { name: "Visibility", schema: visibilityResult },
  },
  errors: ["VALIDATION_ERROR"],
});
