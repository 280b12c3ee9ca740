import { z } from "zod";

/**
 * The words of a missing required value, for every edge that reports field issues (REST, MCP, the older
 * interface, dashboard forms): "Required.", never the validator's "Invalid input: expected string, received
 * undefined". Zod's global error map applies after any message a schema sets itself, in every module that
 * parses with this one zod, once this module has run (lib/errors loads it).
 */
function requiredMessage(issue: { code?: string; input?: unknown }): string | undefined {
  if (issue.input !== undefined) return undefined;
  return issue.code === "invalid_type" || issue.code === "invalid_value" || issue.code === "invalid_union"
    ? "Required."
    : undefined;
}

z.config({ customError: requiredMessage });
