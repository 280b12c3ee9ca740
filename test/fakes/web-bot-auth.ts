// Signs requests the way a Web Bot Auth agent does (RFC 9421: Ed25519, or RSA-PSS SHA-512 and ECDSA P-256 as
// other signers may), for tests: the signature base is written out by hand here, independently of the verifier's
// own builder.

import { constants, generateKeyPairSync, type KeyObject, type SignKeyObjectInput, sign } from "node:crypto";
import { jwkThumbprint } from "@/lib/providers/agent-keys/directory";

export type AgentKeyAlgorithm = "ed25519" | "rsa-pss-sha512" | "ecdsa-p256-sha256";

export interface AgentKeyPair {
  privateKey: KeyObject;
  publicKey: KeyObject;
  /** The public key as a JWK (kty, crv, x for Ed25519). */
  jwk: Record<string, string>;
  /** Its RFC 7638 thumbprint: the keyid. */
  keyid: string;
  alg: AgentKeyAlgorithm;
}

export function agentKeyPair(alg: AgentKeyAlgorithm = "ed25519"): AgentKeyPair {
  const { privateKey, publicKey } =
    alg === "ed25519"
      ? generateKeyPairSync("ed25519")
      : alg === "rsa-pss-sha512"
        ? generateKeyPairSync("rsa", { modulusLength: 2048 })
        : generateKeyPairSync("ec", { namedCurve: "P-256" });
  const jwk = publicKey.export({ format: "jwk" }) as Record<string, string>;
  return { privateKey, publicKey, jwk, keyid: jwkThumbprint(jwk) as string, alg };
}

/** RFC 9421 section 3.3: the digest and the key options each algorithm signs with. */
function signingOptions(
  alg: AgentKeyAlgorithm,
  key: KeyObject,
): [string | null, KeyObject | SignKeyObjectInput] {
  if (alg === "rsa-pss-sha512")
    return ["sha512", { key, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: 64 }];
  if (alg === "ecdsa-p256-sha256") return ["sha256", { key, dsaEncoding: "ieee-p1363" }];
  return [null, key];
}

export interface SignOptions {
  key: AgentKeyPair;
  /** The directory's origin, e.g. http://127.0.0.1:1234 */
  agent: string;
  /** The Signature-Agent member's type: the agent is a key set's URL, or a Signature Agent Card's. */
  agentType?: "jwks_uri" | "cimd";
  authority: string;
  created: number;
  expires: number;
  label?: string;
  /** "dictionary" (current drafts: sig1="https://…", covered as "signature-agent";key="sig1") or "string". */
  agentForm?: "dictionary" | "string";
  /** Also cover @method and @path. */
  method?: string;
  path?: string;
  /** Sign with another key than the one the keyid names (a forgery). */
  signWith?: KeyObject;
  keyid?: string;
  tag?: string;
  /** More signature parameters, as written after the others (e.g. ';nonce="n";x=1.0'). */
  extraParams?: string;
}

/** The three headers of a signed request. */
export function signRequest(o: SignOptions): {
  signature: string;
  signatureInput: string;
  signatureAgent: string;
} {
  const label = o.label ?? "sig1";
  const form = o.agentForm ?? "dictionary";
  const type = o.agentType ? `;type=${o.agentType}` : "";
  const signatureAgent = form === "dictionary" ? `${label}="${o.agent}"${type}` : `"${o.agent}"${type}`;
  const agentId = form === "dictionary" ? `"signature-agent";key="${label}"` : `"signature-agent"`;
  const agentValue = `"${o.agent}"${type}`;
  const components = [`"@authority"`, agentId];
  const lines = [`"@authority": ${o.authority}`, `${agentId}: ${agentValue}`];
  if (o.method) {
    components.push(`"@method"`);
    lines.push(`"@method": ${o.method}`);
  }
  if (o.path) {
    components.push(`"@path"`);
    lines.push(`"@path": ${o.path}`);
  }
  // Ed25519 signatures leave the algorithm to the key, as the drafts' examples do; the others name it.
  const alg = o.key.alg === "ed25519" ? "" : `;alg="${o.key.alg}"`;
  const params = `(${components.join(" ")});created=${o.created};expires=${o.expires};keyid="${o.keyid ?? o.key.keyid}"${alg};tag="${o.tag ?? "web-bot-auth"}"${o.extraParams ?? ""}`;
  lines.push(`"@signature-params": ${params}`);
  const [digest, key] = signingOptions(o.key.alg, o.signWith ?? o.key.privateKey);
  const signature = sign(digest, Buffer.from(lines.join("\n")), key);
  return {
    signature: `${label}=:${signature.toString("base64")}:`,
    signatureInput: `${label}=${params}`,
    signatureAgent,
  };
}
