// Web Bot Auth: HTTP Message Signatures (RFC 9421) as the Web Bot Auth profile uses them (tag "web-bot-auth",
// created/expires, keyid = the key's JWK thumbprint, Signature-Agent naming the key directory), with the
// profile's Ed25519 and the other asymmetric algorithms of RFC 9421 (RSA-PSS SHA-512, which the reference
// implementation also signs with, RSA PKCS#1 v1.5 SHA-256, ECDSA P-256 and P-384). This file turns a request's
// signature headers into one check that needs only the key; lib/providers/agent-keys fetches and caches the keys.

import { constants, type KeyObject, verify } from "node:crypto";
import {
  type Dictionary,
  type InnerList,
  type Item,
  isInnerList,
  type Member,
  parseDictionary,
  parseItem,
  StructuredFieldError,
  serializeDictionary,
  serializeMember,
  Token,
} from "./structured-fields";

const WEB_BOT_AUTH_TAG = "web-bot-auth";
export const DIRECTORY_PATH = "/.well-known/http-message-signatures-directory";
/** Clock difference tolerated between the signer and the server that logged the request. */
const CLOCK_SKEW_SECONDS = 60;
/**
 * A signature valid for longer is a static token (anyone who saw it can replay it until it expires): it proves
 * nothing about the request. The profile recommends no more than 24 hours.
 */
const MAX_LIFETIME_SECONDS = 24 * 60 * 60;
/** The thumbprint of RFC 9421's Ed25519 test key (Appendix B.1.4): its private half is public. */
const RFC9421_TEST_KEY_THUMBPRINT = "poqkLGiymh_W0uP6PZFw-dvez3QJT5SolqXBCW38r0U";

/** The algorithms of RFC 9421 section 3.3 a public key verifies (hmac-sha256 needs a shared secret). */
const ALGORITHMS = [
  "ed25519",
  "rsa-pss-sha512",
  "rsa-v1_5-sha256",
  "ecdsa-p256-sha256",
  "ecdsa-p384-sha384",
] as const;
export type SignatureAlgorithm = (typeof ALGORITHMS)[number];
const isAlgorithm = (alg: unknown): alg is SignatureAlgorithm =>
  typeof alg === "string" && (ALGORITHMS as readonly string[]).includes(alg);

/** A signature's length where the algorithm fixes it (RSA's is the key's modulus). */
const SIGNATURE_BYTES: Partial<Record<SignatureAlgorithm, number>> = {
  ed25519: 64,
  "ecdsa-p256-sha256": 64,
  "ecdsa-p384-sha384": 96,
};

/** What a tracked request carried: the raw header values and what the signature base is built from. */
export interface SignedRequest {
  signature: string;
  signatureInput: string;
  signatureAgent?: string | null;
  /** The requested host (`@authority`), port included when it is not the scheme's default. */
  authority: string;
  /** Path and query as requested. */
  path: string;
  /** The request method, when known (`@method`). */
  method?: string | null;
  /** When the request was made: the signature's validity window is judged at this instant. */
  at: Date;
}

export type SignatureCheck =
  /** The request carries a failing signature (malformed, outside its window, not the profile's): spoofed. */
  | { kind: "invalid"; reason: string }
  /** Nothing can be concluded (another profile, a component we do not receive, an agent we cannot resolve). */
  | { kind: "unjudged"; reason: string }
  /** A well-formed signature within its window: verified once the agent's key is known. */
  | {
      kind: "check";
      label: string;
      /** The `alg` parameter; null when the signature leaves the algorithm to the key. */
      alg: SignatureAlgorithm | null;
      /** The URL the keys are fetched from (the agent's identifier). */
      directory: string;
      /** The URL is a Signature Agent Card (`type=cimd`), which names the keys, rather than a key set. */
      card: boolean;
      keyid: string;
      base: Buffer;
      signature: Buffer;
    };

const invalid = (reason: string): SignatureCheck => ({ kind: "invalid", reason });
const unjudged = (reason: string): SignatureCheck => ({ kind: "unjudged", reason });

class Unjudged extends Error {}
class Invalid extends Error {}

/**
 * Reads a request's Web Bot Auth signature: the first signature tagged "web-bot-auth" decides. Checks everything
 * that needs no key (structure, tag, algorithm, window, the Signature-Agent member the signature covers) and
 * builds the signature base (RFC 9421 section 2.5) from the request's components.
 */
export function prepareSignatureCheck(
  request: SignedRequest,
  options: {
    allowHttpDirectory?: (url: URL) => boolean;
    /** Test vectors: accept the RFC's published test key and signatures of any lifetime. */
    allowTestVectors?: boolean;
  } = {},
): SignatureCheck {
  let inputs: Dictionary;
  let signatures: Dictionary;
  try {
    inputs = parseDictionary(request.signatureInput);
    signatures = parseDictionary(request.signature);
  } catch (error) {
    if (error instanceof StructuredFieldError)
      return invalid(`unreadable signature headers: ${error.message}`);
    throw error;
  }
  let label: string | undefined;
  let input: InnerList | undefined;
  for (const [name, member] of inputs) {
    if (isInnerList(member) && member.params.get("tag") === WEB_BOT_AUTH_TAG) {
      label = name;
      input = member;
      break;
    }
  }
  if (!label || !input) return unjudged("no signature tagged web-bot-auth");
  const params = input.params;
  const created = params.get("created");
  const expires = params.get("expires");
  const keyid = params.get("keyid");
  const alg = params.get("alg");
  if (!Number.isInteger(created) || !Number.isInteger(expires))
    return invalid("created and expires are required");
  if (typeof keyid !== "string" || keyid === "") return invalid("keyid is required");
  if (alg !== undefined && !isAlgorithm(alg)) return unjudged(`algorithm ${String(alg)} is not supported`);
  const t = Math.floor(request.at.getTime() / 1000);
  if ((expires as number) <= (created as number)) return invalid("expires is not after created");
  if ((created as number) > t + CLOCK_SKEW_SECONDS) return invalid("created after the request");
  if ((expires as number) < t - CLOCK_SKEW_SECONDS) return invalid("expired before the request");
  if (!options.allowTestVectors) {
    if ((expires as number) - (created as number) > MAX_LIFETIME_SECONDS) {
      return unjudged("valid for more than 24 hours: a replayable token");
    }
    if (keyid === RFC9421_TEST_KEY_THUMBPRINT)
      return unjudged("signed with the RFC 9421 test key, whose private key is public");
  }
  const sig = signatures.get(label);
  if (!sig || isInnerList(sig) || !(sig.value instanceof Uint8Array))
    return invalid("no signature value for its label");
  const length = alg === undefined ? undefined : SIGNATURE_BYTES[alg];
  if (length !== undefined && sig.value.length !== length) return invalid(`not an ${alg} signature`);

  let agent: ReturnType<typeof signatureAgentFor>;
  try {
    agent = signatureAgentFor(
      request.signatureAgent,
      coveredAgentKey(input) ?? label,
      options.allowHttpDirectory,
    );
  } catch (error) {
    if (error instanceof Unjudged) return unjudged(error.message);
    if (error instanceof Invalid) return invalid(error.message);
    throw error;
  }
  if (!agent) return unjudged("no Signature-Agent");

  let base: string;
  let coversAuthority = false;
  let coversAgent = false;
  try {
    base = signatureBase(input, (component) => {
      const name = component.value;
      if (name === "@authority" || name === "@target-uri") coversAuthority = true;
      if (name === "signature-agent") {
        const key = component.params.get("key");
        // Only the member the signature covers attributes the signature to that agent.
        if (agent.dictionary === null || key === undefined || key === agent.memberKey) coversAgent = true;
      }
      return componentValue(component, request, agent);
    });
  } catch (error) {
    if (error instanceof Unjudged) return unjudged(error.message);
    if (error instanceof Invalid) return invalid(error.message);
    if (error instanceof StructuredFieldError) return invalid(`unreadable component: ${error.message}`);
    throw error;
  }
  if (!coversAuthority) return invalid("neither @authority nor @target-uri is covered");
  if (!coversAgent) return unjudged("the signature does not cover its Signature-Agent");
  return {
    kind: "check",
    label,
    alg: alg ?? null,
    directory: agent.url,
    card: agent.card,
    keyid,
    base: Buffer.from(base, "utf8"),
    signature: Buffer.from(sig.value),
  };
}

/**
 * The signature base of RFC 9421 section 2.5: one line per covered component, its identifier serialised and its
 * value, then the signature parameters serialised as the Signature-Input member they came from.
 */
export function signatureBase(input: InnerList, value: (component: Item) => string): string {
  let base = "";
  const seen = new Set<string>();
  for (const component of input.items) {
    if (typeof component.value !== "string") throw new Invalid("a covered component is not a string");
    const id = serializeMember(component);
    if (seen.has(id)) throw new Invalid(`component ${id} is covered twice`);
    seen.add(id);
    base += `${id}: ${value(component)}\n`;
  }
  return `${base}"@signature-params": ${serializeMember(input)}`;
}

/** The algorithms a JWK's `alg` member allows (RFC 7518 names; EdDSA and Ed25519 for RFC 8037's keys). */
const JWK_ALGORITHMS: Record<string, SignatureAlgorithm> = {
  EdDSA: "ed25519",
  Ed25519: "ed25519",
  PS512: "rsa-pss-sha512",
  RS256: "rsa-v1_5-sha256",
  ES256: "ecdsa-p256-sha256",
  ES384: "ecdsa-p384-sha384",
};

/**
 * The algorithm a key verifies a signature with (RFC 9421 section 3.3.7): the signature's `alg`, which must fit the
 * key, else what the key gives (its type and curve, or its JWK `alg`; an RSA key without either is taken for
 * RSA-PSS SHA-512, the profile's RSA algorithm). Null when they disagree.
 */
export function algorithmFor(
  signed: SignatureAlgorithm | null,
  key: KeyObject,
  jwkAlg: string | null = null,
): SignatureAlgorithm | null {
  const type = key.asymmetricKeyType;
  const curve = key.asymmetricKeyDetails?.namedCurve;
  const fits: SignatureAlgorithm[] =
    type === "ed25519"
      ? ["ed25519"]
      : type === "rsa"
        ? ["rsa-pss-sha512", "rsa-v1_5-sha256"]
        : type === "ec" && curve === "prime256v1"
          ? ["ecdsa-p256-sha256"]
          : type === "ec" && curve === "secp384r1"
            ? ["ecdsa-p384-sha384"]
            : [];
  const declared = jwkAlg === null ? null : (JWK_ALGORITHMS[jwkAlg] ?? "unknown");
  if (declared === "unknown") return null;
  const alg = signed ?? declared ?? fits[0] ?? null;
  if (alg === null || !fits.includes(alg) || (declared !== null && declared !== alg)) return null;
  return alg;
}

/** Verifies a prepared check with the agent's public key (and the JWK's `alg`, when the directory gives one). */
export function verifySignatureCheck(
  check: Extract<SignatureCheck, { kind: "check" }>,
  key: KeyObject,
  jwkAlg: string | null = null,
): boolean {
  const alg = algorithmFor(check.alg, key, jwkAlg);
  try {
    switch (alg) {
      case "ed25519":
        return verify(null, check.base, key, check.signature);
      case "rsa-pss-sha512":
        // RFC 9421 section 3.3.1: MGF1 with SHA-512 and a 64-byte salt.
        return verify(
          "sha512",
          check.base,
          { key, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: 64 },
          check.signature,
        );
      case "rsa-v1_5-sha256":
        return verify("sha256", check.base, { key, padding: constants.RSA_PKCS1_PADDING }, check.signature);
      case "ecdsa-p256-sha256":
      case "ecdsa-p384-sha384":
        // RFC 9421 sections 3.3.4 and 3.3.5: r and s concatenated, not DER.
        if (check.signature.length !== (alg === "ecdsa-p256-sha256" ? 64 : 96)) return false;
        return verify(
          alg === "ecdsa-p256-sha256" ? "sha256" : "sha384",
          check.base,
          { key, dsaEncoding: "ieee-p1363" },
          check.signature,
        );
      default:
        return false;
    }
  } catch {
    return false;
  }
}

/** The Signature-Agent member a signature covers (`"signature-agent";key="agent2"`), if it names one. */
function coveredAgentKey(input: InnerList): string | null {
  for (const component of input.items) {
    const key = component.params.get("key");
    if (component.value === "signature-agent" && typeof key === "string") return key;
  }
  return null;
}

/**
 * The directory a signature's Signature-Agent names: a dictionary member keyed by the signature's label (the
 * current drafts), or a bare quoted URL (the earlier drafts, still sent). An origin resolves to its well-known
 * directory; type=jwks_uri is the key set's own URL, type=cimd a Signature Agent Card's, which names the keys.
 */
function signatureAgentFor(
  raw: string | null | undefined,
  memberKey: string,
  allowHttp: ((url: URL) => boolean) | undefined,
): {
  url: string;
  card: boolean;
  member: Member | null;
  memberKey: string;
  dictionary: Dictionary | null;
  raw: string;
} | null {
  if (raw == null || raw.trim() === "") return null;
  const text = raw.trim();
  let item: Item;
  let dictionary: Dictionary | null = null;
  let member: Member | null = null;
  try {
    if (text.startsWith('"')) item = parseItem(text);
    else {
      dictionary = parseDictionary(text);
      member = dictionary.get(memberKey) ?? null;
      if (!member) throw new Unjudged(`Signature-Agent has no member ${memberKey}`);
      if (isInnerList(member)) throw new Invalid("Signature-Agent member is not a string");
      item = member;
    }
  } catch (error) {
    if (error instanceof StructuredFieldError)
      throw new Invalid(`unreadable Signature-Agent: ${error.message}`);
    throw error;
  }
  if (typeof item.value !== "string") throw new Invalid("Signature-Agent is not a string");
  const type = item.params.get("type");
  const typeName = type === undefined ? "directory" : type instanceof Token ? type.value : null;
  if (typeName !== "directory" && typeName !== "jwks_uri" && typeName !== "cimd") {
    throw new Unjudged(`Signature-Agent type ${String(type)} is not supported`);
  }
  let url: URL;
  try {
    // Early senders wrote the bare host name.
    url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(item.value) ? item.value : `https://${item.value}`);
  } catch {
    throw new Unjudged("Signature-Agent is not a URL");
  }
  if (url.username || url.password) throw new Unjudged("Signature-Agent carries credentials");
  if (url.protocol !== "https:" && !(url.protocol === "http:" && allowHttp?.(url))) {
    throw new Unjudged("Signature-Agent is not an https URL");
  }
  url.hash = "";
  if (typeName === "directory") {
    if (url.pathname !== "/" && url.pathname !== DIRECTORY_PATH) {
      throw new Unjudged("Signature-Agent of type directory is not an origin");
    }
    url.pathname = DIRECTORY_PATH;
    url.search = "";
  }
  return { url: url.toString(), card: typeName === "cimd", member, memberKey, dictionary, raw: text };
}

/**
 * The authority as RFC 9421 signs it (section 2.2.3, HTTP's normalisation): the host in lower case, without
 * the default port of the https scheme a signed agent's request arrives over ("Example.com:443" is
 * "example.com").
 */
function authorityOf(authority: string): string {
  const lower = authority.toLowerCase();
  return lower.endsWith(":443") ? lower.slice(0, -4) : lower;
}

function componentValue(
  component: Item,
  request: SignedRequest,
  agent: { member: Member | null; dictionary: Dictionary | null; raw: string },
): string {
  const name = component.value as string;
  for (const key of component.params.keys()) {
    if (key !== "key" && key !== "sf") throw new Unjudged(`component parameter ${key} is not supported`);
  }
  if (name.startsWith("@") && component.params.size > 0) throw new Unjudged(`parameters on ${name}`);
  const q = request.path.indexOf("?");
  const path = q === -1 ? request.path : request.path.slice(0, q);
  const query = q === -1 ? "" : request.path.slice(q + 1);
  switch (name) {
    case "@authority":
      return authorityOf(request.authority);
    case "@path":
      return path === "" ? "/" : path;
    case "@query":
      return `?${query}`;
    case "@scheme":
      // A signed agent's request reaches the site over TLS: the directory and the profile require https.
      return "https";
    case "@target-uri":
      return `https://${authorityOf(request.authority)}${request.path}`;
    case "@request-target":
      return request.path;
    case "@method":
      if (!request.method) throw new Unjudged("@method is covered but the request's method is not known");
      return request.method.toUpperCase();
    case "signature-agent": {
      const key = component.params.get("key");
      if (typeof key === "string") {
        const dict = agent.dictionary ?? parseDictionary(agent.raw);
        const member = dict.get(key);
        if (!member) throw new Invalid(`signature-agent has no member ${key}`);
        return serializeMember(member);
      }
      if (component.params.get("sf") === true) {
        return agent.dictionary
          ? serializeDictionary(agent.dictionary)
          : serializeMember(parseItem(agent.raw));
      }
      return agent.raw;
    }
    default:
      throw new Unjudged(`component ${name} is not received with tracked requests`);
  }
}
