// Key directories of signed agents (Web Bot Auth): the JSON Web Key Set an agent publishes at
// /.well-known/http-message-signatures-directory (or the JWKS URL its Signature-Agent names), fetched through the
// guarded fetcher, kept as parsed public keys (Ed25519, RSA, ECDSA P-256 and P-384: the asymmetric algorithms of
// RFC 9421) by JWK thumbprint (RFC 7638), and cached as long as the response's Cache-Control max-age (or Expires)
// allows.

import { createHash, createPublicKey, type KeyObject } from "node:crypto";
import { guardedFetch } from "@/lib/fetch";
import type { GuardedFetch } from "@/lib/fetch/types";
import { ProviderError } from "../provider-error";

export const DIRECTORY_MEDIA_TYPE = "application/http-message-signatures-directory+json";

/** A directory is kept at least this long (a max-age of 0 would fetch it on every signed request). */
export const MIN_CACHE_SECONDS = 60;
/** And at most this long, so a removed key stops verifying within a day. */
export const MAX_CACHE_SECONDS = 24 * 60 * 60;
/** Without caching headers. */
export const DEFAULT_CACHE_SECONDS = 60 * 60;

export interface AgentKey {
  key: KeyObject;
  /** The JWK's `alg` member (PS512, ES256, EdDSA…), when it names one: the key signs with that algorithm only. */
  alg: string | null;
  /** Seconds since the epoch; the key signs nothing before or after. */
  notBefore: number | null;
  expires: number | null;
}

export interface KeyDirectory {
  url: string;
  /** By JWK thumbprint. */
  keys: Map<string, AgentKey>;
  fetchedAt: number;
  /** When the cached copy goes stale (milliseconds since the epoch). */
  freshUntil: number;
}

export type KeyDirectoryErrorCode =
  /** The directory answered with a status other than 200 (a 429 or 5xx may pass). */
  | "KEY_DIRECTORY_HTTP_ERROR"
  /** The answer is not JSON. */
  | "KEY_DIRECTORY_NOT_JSON"
  /** The answer is JSON but not a JSON Web Key Set. */
  | "KEY_DIRECTORY_NOT_JWKS"
  /** A Signature Agent Card that does not name its keys as the drafts require. */
  | "KEY_DIRECTORY_NOT_CARD";

/** A signed agent's key directory that could not be read. */
export class KeyDirectoryError extends ProviderError<KeyDirectoryErrorCode> {
  constructor(
    readonly url: string,
    code: KeyDirectoryErrorCode,
    message: string,
    options: { status?: number } = {},
  ) {
    const retryable = options.status === 429 || (options.status !== undefined && options.status >= 500);
    super("agent-keys", code, `Key directory ${url}: ${message}`, { ...options, retryable });
    this.name = "KeyDirectoryError";
  }
}

const b64url = (bytes: Buffer) => bytes.toString("base64url");

/** The RFC 7638 thumbprint of a JWK (SHA-256, base64url): the required members in lexicographic order. */
export function jwkThumbprint(jwk: Record<string, unknown>): string | null {
  const required: Record<string, string[]> = {
    OKP: ["crv", "kty", "x"],
    EC: ["crv", "kty", "x", "y"],
    RSA: ["e", "kty", "n"],
  };
  const members = required[String(jwk.kty)];
  if (!members) return null;
  const parts: string[] = [];
  for (const m of members) {
    if (typeof jwk[m] !== "string") return null;
    parts.push(`${JSON.stringify(m)}:${JSON.stringify(jwk[m])}`);
  }
  return b64url(
    createHash("sha256")
      .update(`{${parts.join(",")}}`)
      .digest(),
  );
}

/** RSA keys shorter than this are refused (RFC 9421 section 3.3.1 and 3.3.2 require 2048 bits). */
const MIN_RSA_BITS = 2048;

/** The public key a JWK holds, when it is one this verifier uses for signatures. */
function publicKeyOf(k: Record<string, unknown>): KeyObject | null {
  let jwk: Record<string, string>;
  if (k.kty === "OKP" && k.crv === "Ed25519" && typeof k.x === "string")
    jwk = { kty: "OKP", crv: "Ed25519", x: k.x };
  else if (k.kty === "RSA" && typeof k.n === "string" && typeof k.e === "string")
    jwk = { kty: "RSA", n: k.n, e: k.e };
  else if (
    k.kty === "EC" &&
    (k.crv === "P-256" || k.crv === "P-384") &&
    typeof k.x === "string" &&
    typeof k.y === "string"
  )
    jwk = { kty: "EC", crv: k.crv, x: k.x, y: k.y };
  else return null;
  let key: KeyObject;
  try {
    key = createPublicKey({ key: jwk, format: "jwk" });
  } catch {
    return null;
  }
  if (key.asymmetricKeyType === "rsa" && (key.asymmetricKeyDetails?.modulusLength ?? 0) < MIN_RSA_BITS)
    return null;
  return key;
}

/**
 * A key's `nbf` or `exp` in seconds since the epoch. JWTs count seconds (RFC 7519), but the Web Bot Auth directory
 * of the reference implementation documents and publishes milliseconds ("nbf": 1743465600000): a number past
 * 10^11 (the year 5138 in seconds) is read as milliseconds, so such a key is not taken for one of a far future.
 */
function epochSeconds(value: unknown): number | null {
  if (typeof value !== "number" || !Number.isFinite(value)) return null;
  return value > 1e11 ? value / 1000 : value;
}

/**
 * The signature keys of a directory document, by thumbprint: Ed25519 (the profile's), RSA of 2048 bits or more
 * and ECDSA on P-256 or P-384. A signature names its key by thumbprint, which the key material itself gives: a
 * `kid` that differs is a label the directory chose and does not hide the key (as the reference verifier reads
 * directories). Keys for encryption (`use` other than "sig") and other types are left out.
 */
export function parseKeyDirectory(document: unknown): Map<string, AgentKey> {
  const keys = new Map<string, AgentKey>();
  const list = (document as { keys?: unknown })?.keys;
  if (!Array.isArray(list)) return keys;
  for (const jwk of list) {
    if (typeof jwk !== "object" || jwk === null) continue;
    const k = jwk as Record<string, unknown>;
    if (k.use !== undefined && k.use !== "sig") continue;
    const key = publicKeyOf(k);
    const thumbprint = key && jwkThumbprint(k);
    if (!key || !thumbprint) continue;
    keys.set(thumbprint, {
      key,
      alg: typeof k.alg === "string" ? k.alg : null,
      notBefore: epochSeconds(k.nbf),
      expires: epochSeconds(k.exp),
    });
  }
  return keys;
}

/** How long a response may be cached, in seconds (RFC 9111: max-age, else Expires minus Date). */
export function cacheLifetime(headers: Record<string, string[]>, now: number): number {
  const cacheControl = (headers["cache-control"] ?? []).join(",").toLowerCase();
  let seconds: number | null = null;
  if (/(?:^|,)\s*(?:no-store|no-cache)\s*(?:,|$)/.test(cacheControl)) seconds = 0;
  const maxAge = /(?:^|,)\s*max-age\s*=\s*"?(\d+)"?/.exec(cacheControl);
  if (seconds === null && maxAge) seconds = Number(maxAge[1]);
  const expires = headers.expires?.[0];
  if (seconds === null && expires) {
    const at = Date.parse(expires);
    const date = Date.parse(headers.date?.[0] ?? "");
    seconds = Number.isNaN(at) ? 0 : Math.floor((at - (Number.isNaN(date) ? now : date)) / 1000);
  }
  if (seconds === null) seconds = DEFAULT_CACHE_SECONDS;
  return Math.min(MAX_CACHE_SECONDS, Math.max(MIN_CACHE_SECONDS, seconds));
}

/** A JSON document fetched the way a directory is (no redirects, bounded), with its cache lifetime in seconds. */
async function fetchJson(
  url: string,
  accept: string,
  fetch: GuardedFetch,
  now: number,
): Promise<{ document: unknown; seconds: number }> {
  const response = await fetch(url, {
    headers: { accept },
    // The profile forbids following redirects: the directory is the URL the agent named.
    redirect: "manual",
    timeoutMs: 5_000,
    maxBytes: 256 * 1024,
  });
  if (response.status !== 200) {
    throw new KeyDirectoryError(url, "KEY_DIRECTORY_HTTP_ERROR", `answered HTTP ${response.status}`, {
      status: response.status,
    });
  }
  try {
    return { document: JSON.parse(response.text()), seconds: cacheLifetime(response.headers, now) };
  } catch {
    throw new KeyDirectoryError(url, "KEY_DIRECTORY_NOT_JSON", "is not JSON");
  }
}

const JWKS_ACCEPT = `${DIRECTORY_MEDIA_TYPE}, application/jwk-set+json;q=0.9, application/json;q=0.8`;

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * Where a Signature Agent Card (a client ID metadata document, `Signature-Agent` type `cimd`) keeps its keys: its
 * own `jwks`, or the key set at its `jwks_uri` (https). As the reference implementation reads cards: `client_id`
 * is the card's own URL, and exactly one of `jwks` and `jwks_uri` is given. `cardUrl` is the URL it was fetched
 * from; a card fetched over plain http (private addresses, where allowed) may name an http key set.
 */
export function readAgentCard(card: unknown, cardUrl: string): { jwks: unknown } | { jwksUri: string } {
  const fail = (message: string) => new KeyDirectoryError(cardUrl, "KEY_DIRECTORY_NOT_CARD", message);
  if (!isRecord(card)) throw fail("signature agent card must be an object");
  if (card.client_id === undefined) throw fail("client_id is required when card URL is known");
  if (typeof card.client_id !== "string") throw fail("client_id must be a string");
  if (card.client_id !== cardUrl) throw fail("client_id must match the card URL");
  if (card.jwks !== undefined && card.jwks_uri !== undefined)
    throw fail("card must not contain both jwks and jwks_uri");
  if (card.jwks !== undefined) {
    if (!isRecord(card.jwks) || !Array.isArray(card.jwks.keys)) throw fail("jwks must be a JWK Set");
    return { jwks: card.jwks };
  }
  if (typeof card.jwks_uri !== "string") throw fail("card must contain either jwks or jwks_uri");
  let jwksUri: URL;
  try {
    jwksUri = new URL(card.jwks_uri);
  } catch {
    throw fail("jwks_uri must be a URL");
  }
  const cardScheme = new URL(cardUrl).protocol;
  if (jwksUri.protocol !== "https:" && jwksUri.protocol !== cardScheme) throw fail("jwks_uri must use https");
  return { jwksUri: jwksUri.toString() };
}

/**
 * Fetches and parses one key set: a directory or JWKS URL, or (`card`) a Signature Agent Card and the key set it
 * names, kept as long as both may be cached. Throws KeyDirectoryError (or the fetcher's FetchError).
 */
export async function fetchKeyDirectory(
  url: string,
  options: { fetch?: GuardedFetch; now?: () => number; card?: boolean } = {},
): Promise<KeyDirectory> {
  const fetch = options.fetch ?? guardedFetch;
  const now = options.now ?? Date.now;
  let fetched = await fetchJson(url, options.card ? "application/json" : JWKS_ACCEPT, fetch, now());
  let jwksUrl = url;
  if (options.card) {
    const source = readAgentCard(fetched.document, url);
    if ("jwksUri" in source) {
      jwksUrl = source.jwksUri;
      const keySet = await fetchJson(jwksUrl, JWKS_ACCEPT, fetch, now());
      fetched = { document: keySet.document, seconds: Math.min(fetched.seconds, keySet.seconds) };
    } else fetched = { document: source.jwks, seconds: fetched.seconds };
  }
  if (!Array.isArray((fetched.document as { keys?: unknown })?.keys)) {
    throw new KeyDirectoryError(jwksUrl, "KEY_DIRECTORY_NOT_JWKS", "is not a JSON Web Key Set");
  }
  const fetchedAt = now();
  return {
    url,
    keys: parseKeyDirectory(fetched.document),
    fetchedAt,
    freshUntil: fetchedAt + fetched.seconds * 1000,
  };
}
