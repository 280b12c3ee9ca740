// The reference implementation's published test vectors (cloudflare/web-bot-auth, packages/web-bot-auth/test/
// test_data, Apache-2.0; test/tracking/fixtures/web-bot-auth): signatures its signer made with the RFC 9421 test
// keys, RSA-PSS SHA-512 and Ed25519, over `@authority` alone or with the Signature-Agent in both forms the
// drafts have used; the Signature-Agent forms it reads (a directory, a key set's URL, a Signature Agent Card's);
// and the cards it accepts or refuses. Each signature must verify here, from a directory holding the public half
// of its key, and fail once the request differs.
import { createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject, sign } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { jwkThumbprint, parseKeyDirectory, readAgentCard } from "@/lib/providers/agent-keys/directory";
import {
  algorithmFor,
  prepareSignatureCheck,
  type SignatureCheck,
  signatureBase,
  verifySignatureCheck,
} from "./signature";
import { type InnerList, parseDictionary } from "./structured-fields";

const FIXTURES = path.join(process.cwd(), "test/tracking/fixtures/web-bot-auth");
const read = <T>(name: string): T => JSON.parse(readFileSync(path.join(FIXTURES, name), "utf8")) as T;

interface Vector {
  key: Record<string, string>;
  target_url: string;
  created_ms: number;
  expires_ms: number;
  label: string;
  signature: string;
  signature_input: string;
  signature_agent?: string;
}

const vectors = [
  ...read<Vector[]>("web_bot_auth_architecture_v1.json").map((v) => ["v1", v] as const),
  ...read<Vector[]>("web_bot_auth_architecture_v2.json").map((v) => ["v2", v] as const),
];

/** The public half of a vector's private JWK, as a directory publishes it (with the JWK's own alg, if any). */
function publicJwk(key: Record<string, string>): Record<string, string> {
  const exported = createPublicKey(createPrivateKey({ key, format: "jwk" })).export({
    format: "jwk",
  }) as Record<string, string>;
  return key.alg ? { ...exported, alg: key.alg } : exported;
}

function requestOf(v: Vector, changes: { authority?: string } = {}) {
  const url = new URL(v.target_url);
  return {
    signature: v.signature,
    signatureInput: v.signature_input,
    signatureAgent: v.signature_agent ?? null,
    authority: changes.authority ?? url.host,
    path: url.pathname + url.search,
    at: new Date(v.created_ms),
  };
}

/** A vector without a Signature-Agent names no directory: its signature is checked on the base alone. */
function bareCheck(v: Vector, authority: string): Extract<SignatureCheck, { kind: "check" }> {
  const input = parseDictionary(v.signature_input).get(v.label) as InnerList;
  const signature = parseDictionary(v.signature).get(v.label) as { value: Uint8Array };
  return {
    kind: "check",
    label: v.label,
    alg: input.params.get("alg") as "ed25519" | "rsa-pss-sha512",
    directory: "",
    card: false,
    keyid: input.params.get("keyid") as string,
    base: Buffer.from(signatureBase(input, () => authority)),
    signature: Buffer.from(signature.value),
  };
}

describe("the reference implementation's signatures (architecture vectors v1 and v2)", () => {
  test("the fixtures hold both algorithms and both Signature-Agent forms", () => {
    expect(vectors).toHaveLength(8);
    expect(new Set(vectors.map(([, v]) => v.key.kty))).toEqual(new Set(["RSA", "OKP"]));
    expect(vectors.filter(([, v]) => v.signature_agent?.startsWith('"'))).toHaveLength(2);
    expect(vectors.filter(([, v]) => v.signature_agent?.includes('="'))).toHaveLength(2);
  });

  test.each(vectors.map(([set, v], i) => [`${set} #${i} ${v.key.kty} ${v.label}`, v] as const))(
    "%s verifies from its directory, and fails for another host",
    (_name, v) => {
      const directory = parseKeyDirectory({ keys: [publicJwk(v.key)] });
      const keyid = parseDictionary(v.signature_input).get(v.label) as InnerList;
      const agentKey = directory.get(keyid.params.get("keyid") as string);
      expect(agentKey, "the directory holds the key the signature names (its thumbprint)").toBeDefined();
      if (!agentKey) return;
      const host = new URL(v.target_url).host;
      if (v.signature_agent) {
        const check = prepareSignatureCheck(requestOf(v), { allowTestVectors: true });
        expect(check).toMatchObject({
          kind: "check",
          label: v.label,
          directory: "https://signature-agent.test/.well-known/http-message-signatures-directory",
        });
        if (check.kind !== "check") return;
        expect(verifySignatureCheck(check, agentKey.key, agentKey.alg)).toBe(true);
        // Without the JWK's alg the key decides (RSA-PSS SHA-512 for RSA, as the signature says).
        expect(verifySignatureCheck(check, agentKey.key)).toBe(true);
        const elsewhere = prepareSignatureCheck(requestOf(v, { authority: "example.org" }), {
          allowTestVectors: true,
        });
        expect(
          elsewhere.kind === "check" && verifySignatureCheck(elsewhere, agentKey.key, agentKey.alg),
        ).toBe(false);
      } else {
        // Web Bot Auth attributes a signature through its Signature-Agent: without one nothing is concluded.
        expect(prepareSignatureCheck(requestOf(v), { allowTestVectors: true })).toMatchObject({
          kind: "unjudged",
          reason: "no Signature-Agent",
        });
        expect(verifySignatureCheck(bareCheck(v, host), agentKey.key, agentKey.alg)).toBe(true);
        expect(verifySignatureCheck(bareCheck(v, "example.org"), agentKey.key, agentKey.alg)).toBe(false);
      }
    },
  );

  test("RFC 9421 B.2.1: the RFC's RSA-PSS signature by the same key (B.1.2), with no alg: the key decides", () => {
    const [, v] = vectors.find(([, x]) => x.key.kty === "RSA") ?? [];
    if (!v) throw new Error("fixtures changed");
    const input = parseDictionary(
      'sig-b21=();created=1618884473;keyid="test-key-rsa-pss";nonce="b3k2pp5k7z-50gnwp.yemd"',
    ).get("sig-b21") as InnerList;
    const signature = parseDictionary(
      "sig-b21=:d2pmTvmbncD3xQm8E9ZV2828BjQWGgiwAaw5bAkgibUopemLJcWDy/lkbbHAve4cRAtx31Iq786U7it++wgGxbtRxf8Udx7zFZsckzXaJMkA7ChG52eSkFxykJeNqsrWH5S+oxNFlD4dzVuwe8DhTSja8xxbR/Z2cOGdCbzR72rgFWhzx2VjBqJzsPLMIQKhO4DGezXehhWwE56YCE+O6c0mKZsfxVrogUvA4HELjVKWmAvtl6UnCh8jYzuVG5WSb/QEVPnP5TmcAnLH1g+s++v6d4s8m0gCw1fV5/SITLq9mhho8K3+7EPYTU8IU1bLhdxO5Nyt8C8ssinQ98Xw9Q==:",
    ).get("sig-b21") as { value: Uint8Array };
    const base = signatureBase(input, () => "");
    expect(base).toBe(
      '"@signature-params": ();created=1618884473;keyid="test-key-rsa-pss";nonce="b3k2pp5k7z-50gnwp.yemd"',
    );
    const check = {
      kind: "check" as const,
      label: "sig-b21",
      alg: null,
      directory: "",
      card: false,
      keyid: "test-key-rsa-pss",
      base: Buffer.from(base),
      signature: Buffer.from(signature.value),
    };
    const key = createPublicKey({ key: publicJwk(v.key), format: "jwk" });
    expect(verifySignatureCheck(check, key)).toBe(true);
    // Read as PKCS#1 v1.5 (a directory saying RS256), the same bytes are no signature.
    expect(verifySignatureCheck(check, key, "RS256")).toBe(false);
    expect(
      verifySignatureCheck({ ...check, base: Buffer.from(base.replace("1618884473", "1618884474")) }, key),
    ).toBe(false);
  });

  test("RFC 9421 B.2.4: the RFC's ECDSA P-256 signature (r and s, no alg) verifies with the B.1.3 key", () => {
    const input = parseDictionary(
      'sig-b24=("@status" "content-type" "content-digest" "content-length");created=1618884473;keyid="test-key-ecc-p256"',
    ).get("sig-b24") as InnerList;
    const values: Record<string, string> = {
      "@status": "200",
      "content-type": "application/json",
      "content-digest":
        "sha-512=:mEWXIS7MaLRuGgxOBdODa3xqM1XdEvxoYhvlCFJ41QJgJc4GTsPp29l5oGX69wWdXymyU0rjJuahq4l5aGgfLQ==:",
      "content-length": "23",
    };
    const base = signatureBase(input, (c) => values[c.value as string] as string);
    const signature = parseDictionary(
      "sig-b24=:wNmSUAhwb5LxtOtOpNa6W5xj067m5hFrj0XQ4fvpaCLx0NKocgPquLgyahnzDnDAUy5eCdlYUEkLIj+32oiasw==:",
    ).get("sig-b24") as { value: Uint8Array };
    const key = createPublicKey({
      key: {
        kty: "EC",
        crv: "P-256",
        x: "qIVYZVLCrPZHGHjP17CTW0_-D9Lfw0EkjqF7xB4FivA",
        y: "Mc4nN9LTDOBhfoUeg8Ye9WedFRhnZXZJA12Qp0zZ6F0",
      },
      format: "jwk",
    });
    const check = {
      kind: "check" as const,
      label: "sig-b24",
      alg: null,
      directory: "",
      card: false,
      keyid: "test-key-ecc-p256",
      base: Buffer.from(base),
      signature: Buffer.from(signature.value),
    };
    expect(verifySignatureCheck(check, key)).toBe(true);
    expect(verifySignatureCheck(check, key, "ES256")).toBe(true);
    expect(
      verifySignatureCheck(
        { ...check, base: Buffer.from(base.replace('"@status": 200', '"@status": 201')) },
        key,
      ),
    ).toBe(false);
  });

  test("a key used with an algorithm it does not declare or cannot do verifies nothing", () => {
    const [, rsa] = vectors.find(([, v]) => v.key.kty === "RSA" && v.signature_agent) ?? [];
    const [, ed] = vectors.find(([, v]) => v.key.kty === "OKP" && v.signature_agent) ?? [];
    if (!rsa || !ed) throw new Error("fixtures changed");
    const rsaCheck = prepareSignatureCheck(requestOf(rsa), { allowTestVectors: true });
    const edCheck = prepareSignatureCheck(requestOf(ed), { allowTestVectors: true });
    if (rsaCheck.kind !== "check" || edCheck.kind !== "check") throw new Error("not checks");
    const rsaKey = createPublicKey({ key: publicJwk(rsa.key), format: "jwk" });
    const edKey = createPublicKey({ key: publicJwk(ed.key), format: "jwk" });
    // The directory says RS256 (PKCS#1 v1.5): a PSS signature from that key is not accepted.
    expect(verifySignatureCheck(rsaCheck, rsaKey, "RS256")).toBe(false);
    expect(verifySignatureCheck(rsaCheck, rsaKey, "PS512")).toBe(true);
    expect(verifySignatureCheck(rsaCheck, rsaKey, "HS256")).toBe(false);
    // An Ed25519 signature against the RSA key, and the other way round.
    expect(verifySignatureCheck(edCheck, rsaKey)).toBe(false);
    expect(verifySignatureCheck(rsaCheck, edKey)).toBe(false);
    expect(algorithmFor("rsa-pss-sha512", edKey)).toBeNull();
    expect(algorithmFor(null, rsaKey)).toBe("rsa-pss-sha512");
    expect(algorithmFor(null, rsaKey, "RS256")).toBe("rsa-v1_5-sha256");
  });
});

describe("RFC 9421's other asymmetric algorithms", () => {
  const AT = new Date("2026-11-20T12:00:00Z");
  const T = AT.getTime() / 1000;
  const signed = (alg: string | null, privateKey: KeyObject, jwk: Record<string, string>, options = {}) => {
    const keyid = jwkThumbprint(jwk) as string;
    const params = `("@authority" "signature-agent";key="sig1");created=${T - 5};expires=${T + 60};keyid="${keyid}"${alg ? `;alg="${alg}"` : ""};tag="web-bot-auth"`;
    const base = `"@authority": example.com\n"signature-agent";key="sig1": "https://signer.example"\n"@signature-params": ${params}`;
    const signature = sign(
      alg === "ecdsa-p384-sha384" ? "sha384" : alg === "rsa-pss-sha512" || alg === null ? "sha512" : "sha256",
      Buffer.from(base),
      { key: privateKey, ...options },
    );
    return prepareSignatureCheck({
      signature: `sig1=:${signature.toString("base64")}:`,
      signatureInput: `sig1=${params}`,
      signatureAgent: 'sig1="https://signer.example"',
      authority: "example.com",
      path: "/",
      at: AT,
    });
  };
  const pair = (type: "rsa" | "ec", options: object) => {
    const { privateKey, publicKey } = generateKeyPairSync(
      type as "rsa",
      options as { modulusLength: number },
    );
    return { privateKey, publicKey, jwk: publicKey.export({ format: "jwk" }) as Record<string, string> };
  };
  const rsa = pair("rsa", { modulusLength: 2048 });
  const p256 = pair("ec", { namedCurve: "P-256" });
  const p384 = pair("ec", { namedCurve: "P-384" });

  test.each([
    ["rsa-pss-sha512", rsa, { padding: 6, saltLength: 64 }],
    ["rsa-v1_5-sha256", rsa, { padding: 1 }],
    ["ecdsa-p256-sha256", p256, { dsaEncoding: "ieee-p1363" }],
    ["ecdsa-p384-sha384", p384, { dsaEncoding: "ieee-p1363" }],
  ] as const)("%s: verified from the directory's key, failed with another key", (alg, k, options) => {
    const check = signed(alg, k.privateKey, k.jwk, options);
    expect(check).toMatchObject({ kind: "check", alg });
    if (check.kind !== "check") return;
    const directory = parseKeyDirectory({ keys: [k.jwk] });
    const agentKey = directory.get(check.keyid);
    expect(agentKey).toBeDefined();
    expect(verifySignatureCheck(check, agentKey?.key as KeyObject, agentKey?.alg ?? null)).toBe(true);
    const other = alg.startsWith("rsa")
      ? pair("rsa", { modulusLength: 2048 })
      : alg.includes("384")
        ? pair("ec", { namedCurve: "P-384" })
        : pair("ec", { namedCurve: "P-256" });
    expect(verifySignatureCheck(check, other.publicKey)).toBe(false);
  });

  test("an ECDSA signature in DER (not r‖s) is no signature of RFC 9421", () => {
    const check = signed("ecdsa-p256-sha256", p256.privateKey, p256.jwk, { dsaEncoding: "der" });
    expect(check.kind === "check" && verifySignatureCheck(check, p256.publicKey)).toBe(false);
  });

  test("without alg, the key decides: RSA is taken for RSA-PSS SHA-512", () => {
    const check = signed(null, rsa.privateKey, rsa.jwk, { padding: 6, saltLength: 64 });
    expect(check).toMatchObject({ kind: "check", alg: null });
    expect(check.kind === "check" && verifySignatureCheck(check, rsa.publicKey)).toBe(true);
  });

  test("a directory leaves out RSA keys under 2048 bits, symmetric keys and unknown curves", () => {
    const small = pair("rsa", { modulusLength: 1024 });
    const k256 = pair("ec", { namedCurve: "secp256k1" });
    const parsed = parseKeyDirectory({
      keys: [small.jwk, k256.jwk, { kty: "oct", k: "c2VjcmV0" }, rsa.jwk, p256.jwk],
    });
    expect([...parsed.keys()].sort()).toEqual([jwkThumbprint(rsa.jwk), jwkThumbprint(p256.jwk)].sort());
  });

  test("hmac-sha256 (a shared secret, no directory can hold it): nothing concluded", () => {
    const check = signed("ecdsa-p256-sha256", p256.privateKey, p256.jwk, { dsaEncoding: "ieee-p1363" });
    if (check.kind !== "check") throw new Error("not a check");
    const hmac = prepareSignatureCheck({
      signature: `sig1=:${check.signature.toString("base64")}:`,
      signatureInput: `sig1=("@authority" "signature-agent";key="sig1");created=${T - 5};expires=${T + 60};keyid="k";alg="hmac-sha256";tag="web-bot-auth"`,
      signatureAgent: 'sig1="https://signer.example"',
      authority: "example.com",
      path: "/",
      at: AT,
    });
    expect(hmac).toMatchObject({ kind: "unjudged", reason: "algorithm hmac-sha256 is not supported" });
  });
});

describe("the reference implementation's Signature-Agent forms and Signature Agent Cards", () => {
  interface AgentVector {
    name: string;
    header: string;
    entries: { label: string; uri: string; type: "directory" | "jwks_uri" | "cimd" }[];
  }
  interface CardVector {
    name: string;
    url: string;
    valid: boolean;
    error?: string;
    card: unknown;
  }
  const key = generateKeyPairSync("ed25519");
  const jwk = key.publicKey.export({ format: "jwk" }) as Record<string, string>;
  const keyid = jwkThumbprint(jwk) as string;
  const AT = new Date("2026-11-20T12:00:00Z");
  const T = AT.getTime() / 1000;

  test.each(read<AgentVector[]>("web_bot_auth_signature_agent_v1.json").map((v) => [v.name, v] as const))(
    "%s: the signature resolves to the entry's URI and type",
    (_name, v) => {
      const [entry] = v.entries;
      if (!entry) throw new Error("no entry");
      const member = v.header.slice(v.header.indexOf("=") + 1);
      const params = `("@authority" "signature-agent";key="${entry.label}");created=${T - 5};expires=${T + 60};keyid="${keyid}";tag="web-bot-auth"`;
      const base = `"@authority": example.com\n"signature-agent";key="${entry.label}": ${member}\n"@signature-params": ${params}`;
      const check = prepareSignatureCheck({
        signature: `${entry.label}=:${sign(null, Buffer.from(base), key.privateKey).toString("base64")}:`,
        signatureInput: `${entry.label}=${params}`,
        signatureAgent: v.header,
        authority: "example.com",
        path: "/",
        at: AT,
      });
      const url =
        entry.type === "directory" ? `${entry.uri}/.well-known/http-message-signatures-directory` : entry.uri;
      expect(check).toMatchObject({
        kind: "check",
        label: entry.label,
        directory: url,
        card: entry.type === "cimd",
      });
      expect(check.kind === "check" && verifySignatureCheck(check, key.publicKey)).toBe(true);
    },
  );

  test.each(read<CardVector[]>("web_bot_auth_signature_agent_card_v1.json").map((v) => [v.name, v] as const))(
    "card %s: read as the reference reads it",
    (_name, v) => {
      if (v.valid) {
        const source = readAgentCard(v.card, v.url);
        const card = v.card as { jwks?: unknown; jwks_uri?: string };
        expect(source).toEqual(card.jwks ? { jwks: card.jwks } : { jwksUri: card.jwks_uri });
        if ("jwks" in source) expect(parseKeyDirectory(source.jwks).size).toBe(1);
      } else {
        expect(() => readAgentCard(v.card, v.url)).toThrow(v.error as string);
      }
    },
  );

  test("cards without keys, with keys in no set, or naming a plain-http key set over https are refused", () => {
    const url = "https://example.com/bot";
    expect(() => readAgentCard({ client_id: url }, url)).toThrow("card must contain either jwks or jwks_uri");
    expect(() => readAgentCard({ jwks_uri: "https://example.com/k" }, url)).toThrow("client_id is required");
    expect(() => readAgentCard({ client_id: url, jwks: { keys: "x" } }, url)).toThrow(
      "jwks must be a JWK Set",
    );
    expect(() => readAgentCard({ client_id: url, jwks_uri: "http://example.com/k" }, url)).toThrow(
      "jwks_uri must use https",
    );
    expect(() => readAgentCard([], url)).toThrow("must be an object");
  });
});
