export { isIpLiteral, type PrivateTargetPolicy } from "./address-policy";
export { FetchError, requireOk, toToolError } from "./errors";
export {
  createGuardedFetch,
  DEFAULT_USER_AGENT,
  type GuardedFetchConfig,
  guardedFetch,
  lookupAllowed,
  type ResolvedAddress,
  type Resolver,
  readPrivateTargetPolicy,
  resolveUserAgent,
  resolveWithSystemDns,
} from "./guarded-fetch";
export * from "./types";
