import { z } from "zod";

/**
 * A customer-supplied page URL: http(s) only, at most 2048 characters (DESIGN.md bounds).
 * Whether its host may be fetched is the guarded fetcher's call, made on resolved addresses.
 */
export const httpUrl = z
  .url({ protocol: /^https?$/, error: "Must be an absolute http(s) URL." })
  .max(2048, { error: "Must be at most 2048 characters." });
