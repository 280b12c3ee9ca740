import { isJobFailureCode } from "@/lib/errors";
import { FetchError, toToolError } from "@/lib/fetch/errors";
import { KeywordResearchError } from "@/lib/keywords";
import { ProviderError } from "@/lib/providers/provider-error";
import { ToolError } from "./types";

/**
 * The deliberate failures of the keyword and backlink tools as job errors (failed and refunded with their
 * code): keyword research's own, and a provider's whose code is a job failure code (DataForSEO's). Anything
 * else is rethrown: the runner reports it as TOOL_FAILED without leaking its message.
 */
export function toKnownToolError(err: unknown): unknown {
  if (err instanceof KeywordResearchError) return new ToolError(err.code, err.message);
  if (err instanceof ProviderError && isJobFailureCode(err.code)) {
    return new ToolError(err.code, err.message);
  }
  if (err instanceof FetchError) return toToolError(err);
  return err;
}
