// Signs requests the way a Web Bot Auth agent does (RFC 9421, Ed25519), for tests: the signature base is written
// out by hand here, independently of the verifier's own builder.

import { generateKeyPairSync, type KeyObject, sign } from "node:crypto";
import { jwkThumbprint } from "@/lib/providers/agent-keys/directory";

export interface AgentKeyPair {
  privateKey: KeyObject;
  publicKey: KeyObject;
  /** The public key as a JWK (kty, crv, x). */
  jwk: { kty: string; crv: string; x: string };
  /** Its RFC 7638 thumbprint: the keyid. */
  keyid: string;
}

export function agentKeyPair(): AgentKeyPair {
  const { privateKey, publicKey } = generateKeyPairSync("ed25519");
  const exported = publicKey.export({ format: "jwk" }) as { kty: string; crv: string; x: string };
  const jwk = { kty: exported.kty, crv: exported.crv, x: exported.x };
  return { privateKey, publicKey, jwk, keyid: jwkThumbprint(jwk) as string };
}

export interface SignOptions {
  key: AgentKeyPair;
  /** The directory's origin, e.g. http://127.0.0.1:1234 */
  agent: string;
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
  const signatureAgent = form === "dictionary" ? `${label}="${o.agent}"` : `"${o.agent}"`;
  const agentId = form === "dictionary" ? `"signature-agent";key="${label}"` : `"signature-agent"`;
  const agentValue = `"${o.agent}"`;
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
  const params = `(${components.join(" ")});created=${o.created};expires=${o.expires};keyid="${o.keyid ?? o.key.keyid}";tag="${o.tag ?? "web-bot-auth"}"${o.extraParams ?? ""}`;
  lines.push(`"@signature-params": ${params}`);
  const signature = sign(null, Buffer.from(lines.join("\n")), o.signWith ?? o.key.privateKey);
  return {
    signature: `${label}=:${signature.toString("base64")}:`,
    signatureInput: `${label}=${params}`,
    signatureAgent,
  };
}
