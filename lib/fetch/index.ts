export type { PrivateTargetPolicy } from "./address-policy";
export { FetchError, requireOk, toToolError } from "./errors";
export {
  createGuardedFetch,
  DEFAULT_USER_AGENT,
  type GuardedFetchConfig,
  guardedFetch,
  type ResolvedAddress,
  type Resolver,
  readPrivateTargetPolicy,
  resolveUserAgent,
} from "./guarded-fetch";
export * from "./types";
