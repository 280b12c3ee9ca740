import { createPublicKey, verify } from "node:crypto";
import { describe, expect, test } from "vitest";
import { jwkThumbprint, parseKeyDirectory } from "@/lib/providers/agent-keys/directory";
import { agentKeyPair, signRequest } from "@/test/fakes/web-bot-auth";
import { prepareSignatureCheck, signatureBase, verifySignatureCheck } from "./signature";
import { type InnerList, parseDictionary, parseItem, serializeDictionary } from "./structured-fields";

const AGENT = "https://signer.example";
const DIRECTORY = "https://signer.example/.well-known/http-message-signatures-directory";
const AT = new Date("2026-11-20T12:00:00Z");
const T = AT.getTime() / 1000;

describe("RFC 9421 test vectors", () => {
  // Appendix B.1.4 (the Ed25519 test key) and B.2.6 (its signature over the test request).
  const B14_X = "JrQLj5P_89iXES9-vFgrIy29clF9CC_oPPsw3c5D0bs";
  const B26_INPUT =
    'sig-b26=("date" "@method" "@path" "@authority" "content-type" "content-length");created=1618884473;keyid="test-key-ed25519"';
  const B26_SIGNATURE =
    "sig-b26=:wqcAqbmYJ2ji2glfAMaRy4gruYYnx2nEFN2HN6jrnDnQCK1u02Gb04v9EDgwUPiu4A0w6vuQv5lIp5WPpBKRCw==:";

  test("B.2.6: the signature base is rebuilt byte for byte and the Ed25519 signature verifies", () => {
    const input = parseDictionary(B26_INPUT).get("sig-b26") as InnerList;
    const values: Record<string, string> = {
      date: "Tue, 20 Apr 2021 02:07:55 GMT",
      "@method": "POST",
      "@path": "/foo",
      "@authority": "example.com",
      "content-type": "application/json",
      "content-length": "18",
    };
    const base = signatureBase(input, (c) => values[c.value as string] as string);
    expect(base).toBe(
      [
        '"date": Tue, 20 Apr 2021 02:07:55 GMT',
        '"@method": POST',
        '"@path": /foo',
        '"@authority": example.com',
        '"content-type": application/json',
        '"content-length": 18',
        '"@signature-params": ("date" "@method" "@path" "@authority" "content-type" "content-length");created=1618884473;keyid="test-key-ed25519"',
      ].join("\n"),
    );
    const signature = parseDictionary(B26_SIGNATURE).get("sig-b26") as { value: Uint8Array };
    const key = createPublicKey({ key: { kty: "OKP", crv: "Ed25519", x: B14_X }, format: "jwk" });
    expect(verify(null, Buffer.from(base), key, signature.value)).toBe(true);
    expect(verify(null, Buffer.from(base.replace("/foo", "/bar")), key, signature.value)).toBe(false);
  });

  test("the B.1.4 key's thumbprint is the kid the Web Bot Auth drafts give it (RFC 7638, RFC 8037 A.3)", () => {
    expect(jwkThumbprint({ kty: "OKP", crv: "Ed25519", x: B14_X })).toBe(
      "poqkLGiymh_W0uP6PZFw-dvez3QJT5SolqXBCW38r0U",
    );
    // RFC 8037 appendix A.3's own example.
    expect(
      jwkThumbprint({ kty: "OKP", crv: "Ed25519", x: "11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo" }),
    ).toBe("kPrK_qmxVWaYVA9wwBF6Iuo3vVzz7TxHCTwXBygrS4k");
  });
});

describe("the Web Bot Auth draft's Ed25519 test vectors (draft-ietf-webbotauth-httpsig-protocol, Appendix)", () => {
  const key = createPublicKey({
    key: { kty: "OKP", crv: "Ed25519", x: "JrQLj5P_89iXES9-vFgrIy29clF9CC_oPPsw3c5D0bs" },
    format: "jwk",
  });
  const request = { authority: "example.com", path: "/", at: new Date(1735690000 * 1000) };
  const vectors = {
    "Signature-Agent dictionary member (agent2) covered by sig2": {
      signatureAgent: 'agent2="https://signature-agent.test"',
      signatureInput:
        'sig2=("@authority" "signature-agent";key="agent2");created=1735689600;keyid="poqkLGiymh_W0uP6PZFw-dvez3QJT5SolqXBCW38r0U";alg="ed25519";expires=4889289600;nonce="n9p433xm+NJ3ph3upfBIGmsuwHw387YV7Q/F+6BSpGCVjYCqQw6rznNA8PVVLySrAWsv0hQtFioQb6E1YsauiA==";tag="web-bot-auth"',
      signature:
        "sig2=:RdNFx5Bj6au3YgAMQL/RzmUlZE8QZLIaXGRpw985hWnwPfMxT228NMk6ehRS1PSl4e8PhbNZACSanGdhEwYCCg==:",
    },
    "legacy Signature-Agent sf-string": {
      signatureAgent: '"https://signature-agent.test"',
      signatureInput:
        'sig2=("@authority" "signature-agent");created=1735689600;keyid="poqkLGiymh_W0uP6PZFw-dvez3QJT5SolqXBCW38r0U";alg="ed25519";expires=1735693200;nonce="e8N7S2MFd/qrd6T2R3tdfAuuANngKI7LFtKYI/vowzk4lAZYadIX6wW25MwG7DCT9RUKAJ0qVkU0mEeLElW1qg==";tag="web-bot-auth"',
      signature:
        "sig2=:jdq0SqOwHdyHr9+r5jw3iYZH6aNGKijYp/EstF4RQTQdi5N5YYKrD+mCT1HA1nZDsi6nJKuHxUi/5Syp3rLWBA==:",
    },
  };

  test.each(Object.entries(vectors))("%s verifies", (_name, headers) => {
    const check = prepareSignatureCheck({ ...request, ...headers }, { allowTestVectors: true });
    expect(check).toMatchObject({
      kind: "check",
      label: "sig2",
      directory: "https://signature-agent.test/.well-known/http-message-signatures-directory",
      keyid: "poqkLGiymh_W0uP6PZFw-dvez3QJT5SolqXBCW38r0U",
    });
    if (check.kind !== "check") return;
    expect(verifySignatureCheck(check, key)).toBe(true);
    const elsewhere = prepareSignatureCheck(
      { ...request, ...headers, authority: "example.org" },
      { allowTestVectors: true },
    );
    expect(elsewhere.kind === "check" && verifySignatureCheck(elsewhere, key)).toBe(false);
  });

  test("outside tests, the published test key and a 99-year signature prove nothing", () => {
    const [dictionary, legacy] = Object.values(vectors);
    expect(prepareSignatureCheck({ ...request, ...dictionary! })).toMatchObject({
      kind: "unjudged",
      reason: expect.stringContaining("24 hours"),
    });
    expect(prepareSignatureCheck({ ...request, ...legacy! })).toMatchObject({
      kind: "unjudged",
      reason: expect.stringContaining("test key"),
    });
  });
});

describe("structured fields (RFC 8941)", () => {
  test("dictionaries, inner lists, parameters and byte sequences round-trip", () => {
    const text =
      'sig1=("@authority" "signature-agent";key="sig1");created=1;expires=2;keyid="k";tag="web-bot-auth", a=?1, b=tok;x=1.5, c=:AQID:';
    const dict = parseDictionary(text);
    expect(serializeDictionary(dict)).toBe(
      'sig1=("@authority" "signature-agent";key="sig1");created=1;expires=2;keyid="k";tag="web-bot-auth", a, b=tok;x=1.5, c=:AQID:',
    );
    expect(parseItem('"a \\"quoted\\" \\\\ string"').value).toBe('a "quoted" \\ string');
  });

  test.each([
    "sig1=(",
    'sig1="unterminated',
    "sig1=:not base64!:",
    "Sig1=1",
    "sig1=1,",
    'sig1="\\x"',
    "sig1=1234567890123456",
  ])("%s is refused", (text) => {
    expect(() => parseDictionary(text)).toThrow();
  });
});

describe("prepareSignatureCheck", () => {
  const key = agentKeyPair();
  const keys = parseKeyDirectory({ keys: [{ ...key.jwk, kid: key.keyid }] });
  const base = { authority: "example.com", path: "/docs?x=1", at: AT };
  const check = (
    headers: ReturnType<typeof signRequest>,
    extra: Partial<Parameters<typeof prepareSignatureCheck>[0]> = {},
  ) => prepareSignatureCheck({ ...base, ...headers, ...extra });
  const verifies = (headers: ReturnType<typeof signRequest>, extra = {}) => {
    const c = check(headers, extra);
    if (c.kind !== "check") return c.kind;
    const k = keys.get(c.keyid);
    return k ? verifySignatureCheck(c, k.key) : "no key";
  };
  const signed = (o: Partial<Parameters<typeof signRequest>[0]> = {}) =>
    signRequest({ key, agent: AGENT, authority: "example.com", created: T - 10, expires: T + 300, ...o });

  test("a Signature-Agent of type jwks_uri or cimd names a key set's or a card's own URL", () => {
    const jwks = signed({ agent: "https://signer.example/keys.json", agentType: "jwks_uri" });
    expect(check(jwks)).toMatchObject({
      kind: "check",
      directory: "https://signer.example/keys.json",
      card: false,
    });
    expect(verifies(jwks)).toBe(true);
    const card = signed({ agent: "https://signer.example/bot", agentType: "cimd" });
    expect(check(card)).toMatchObject({ kind: "check", directory: "https://signer.example/bot", card: true });
    expect(verifies(card)).toBe(true);
    // The type is part of the covered member: a card presented as a key set no longer verifies.
    expect(verifies({ ...card, signatureAgent: 'sig1="https://signer.example/bot";type=jwks_uri' })).toBe(
      false,
    );
  });

  test("both Signature-Agent forms name the directory and verify", () => {
    for (const agentForm of ["dictionary", "string"] as const) {
      const c = check(signed({ agentForm }));
      expect(c).toMatchObject({ kind: "check", directory: DIRECTORY, keyid: key.keyid, label: "sig1" });
      expect(verifies(signed({ agentForm }))).toBe(true);
    }
  });

  test("@method and @path covered: verified with the event's method, undecidable without it", () => {
    const headers = signed({ method: "GET", path: "/docs" });
    expect(verifies(headers, { method: "GET" })).toBe(true);
    expect(verifies(headers, { method: "POST" })).toBe(false);
    expect(check(headers, { method: null }).kind).toBe("unjudged");
    expect(verifies(headers, { method: "GET", path: "/other" })).toBe(false);
  });

  test("parameters are signed as written: a decimal stays a decimal, and is no Integer for created", () => {
    // A parameter this product does not know is still part of the signature base, serialised exactly (1.0, not 1).
    expect(verifies(signed({ extraParams: ';nonce="n-1";x=1.0;y=-0.25' }))).toBe(true);
    const decimal = signed();
    const input = decimal.signatureInput.replace(/created=(\d+)/, "created=$1.0");
    expect(check({ ...decimal, signatureInput: input })).toMatchObject({
      kind: "invalid",
      reason: "created and expires are required",
    });
    // A reason names the value as it was written, whatever its type.
    const withAlg = (alg: string) =>
      check({ ...decimal, signatureInput: `${decimal.signatureInput};alg=${alg}` });
    expect(withAlg("1.0")).toMatchObject({ kind: "unjudged", reason: "algorithm 1.0 is not supported" });
    expect(withAlg("rsa")).toMatchObject({ kind: "unjudged", reason: "algorithm rsa is not supported" });
    expect(check({ ...decimal, signatureAgent: 'sig1="https://signer.example";type=oauth' })).toMatchObject({
      kind: "unjudged",
      reason: "Signature-Agent type oauth is not supported",
    });
  });

  test("the authority as HTTP normalises it: its case and the default port make no difference", () => {
    for (const authority of ["Example.COM", "example.com:443", "EXAMPLE.com:443"]) {
      expect(verifies(signed(), { authority }), authority).toBe(true);
    }
    // Another port, or a fully qualified name's final dot, is another authority.
    expect(verifies(signed(), { authority: "example.com:8443" })).toBe(false);
    expect(verifies(signed(), { authority: "example.com." })).toBe(false);
  });

  test("another authority, another key, a tampered agent: the signature fails", () => {
    expect(verifies(signed(), { authority: "evil.example" })).toBe(false);
    expect(verifies(signed({ signWith: agentKeyPair().privateKey }))).toBe(false);
    const headers = signed();
    expect(verifies({ ...headers, signatureAgent: 'sig1="https://other.example"' })).toBe(false);
  });

  test("outside its window (expired, replayed later, created after the request): invalid", () => {
    expect(check(signed({ created: T - 600, expires: T - 300 }))).toMatchObject({ kind: "invalid" });
    expect(check(signed(), { at: new Date(AT.getTime() + 3_600_000) })).toMatchObject({
      kind: "invalid",
      reason: "expired before the request",
    });
    expect(check(signed({ created: T + 600, expires: T + 900 }))).toMatchObject({ kind: "invalid" });
    // Within the tolerated clock skew.
    expect(check(signed({ created: T + 30, expires: T + 900 })).kind).toBe("check");
  });

  test("not the profile, or not attributable: nothing concluded", () => {
    expect(check(signed({ tag: "other" })).kind).toBe("unjudged");
    expect(check({ ...signed(), signatureAgent: "" }).kind).toBe("unjudged");
    // http directory only where allowed, and the agent must be an origin.
    expect(check(signed({ agent: "http://signer.example" })).kind).toBe("unjudged");
    expect(check(signed({ agent: "https://signer.example/keys" })).kind).toBe("unjudged");
    expect(
      prepareSignatureCheck(
        { ...base, ...signed({ agent: "http://127.0.0.1:8080" }) },
        { allowHttpDirectory: () => true },
      ),
    ).toMatchObject({
      kind: "check",
      directory: "http://127.0.0.1:8080/.well-known/http-message-signatures-directory",
    });
  });

  test("a component keyed into a Signature-Agent that is no dictionary: invalid, never a crash", () => {
    const headers = signed({ agentForm: "string" });
    const input = headers.signatureInput.replace('"signature-agent"', '"signature-agent";key="sig1"');
    expect(check({ ...headers, signatureInput: input }).kind).toBe("invalid");
    // Random bytes in every header: an answer, never an exception.
    for (let i = 0; i < 500; i++) {
      const noise = () =>
        String.fromCharCode(
          ...Array.from({ length: 1 + (i % 40) }, () => 32 + ((i * 7919 + Math.random() * 95) % 95)),
        );
      const mixed = {
        ...signed(),
        signature: i % 3 ? noise() : signed().signature,
        signatureInput: i % 2 ? noise() : input,
        signatureAgent: noise(),
      };
      expect(["invalid", "unjudged", "check"]).toContain(check(mixed).kind);
    }
  });

  test("malformed headers are a failing signature", () => {
    expect(check({ ...signed(), signature: "sig1=:!!:" }).kind).toBe("invalid");
    expect(check({ ...signed(), signatureInput: "sig1=(" }).kind).toBe("invalid");
    expect(check({ ...signed(), signature: "sig2=:AAAA:" }).kind).toBe("invalid");
  });

  test("a directory's keys: by thumbprint whatever their kid; keys for encryption and broken keys left out", () => {
    const other = agentKeyPair();
    const third = agentKeyPair();
    const parsed = parseKeyDirectory({
      keys: [
        { ...key.jwk, kid: key.keyid },
        // The signature names a key by the thumbprint its material gives; a kid is the directory's label.
        { ...other.jwk, kid: "not-its-thumbprint" },
        { kty: "EC", crv: "P-256", x: "x", y: "y" },
        { ...third.jwk, use: "enc" },
      ],
    });
    expect([...parsed.keys()]).toEqual([key.keyid, other.keyid]);
    expect(parsed.has("not-its-thumbprint")).toBe(false);
  });
});
