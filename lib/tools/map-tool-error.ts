import { FetchError, toToolError } from "@/lib/fetch/errors";
import { KeywordResearchError } from "@/lib/keywords";
import { DataForSeoError } from "@/lib/providers/dataforseo";
import { ToolError } from "./types";

/**
 * The deliberate failures of the keyword and backlink tools as job errors (failed and refunded with their
 * code). Anything else is rethrown: the runner reports it as TOOL_FAILED without leaking its message.
 */
export function toKnownToolError(err: unknown): unknown {
  if (err instanceof KeywordResearchError || err instanceof DataForSeoError) {
    return new ToolError(err.code, err.message);
  }
  if (err instanceof FetchError) return toToolError(err);
  return err;
}
