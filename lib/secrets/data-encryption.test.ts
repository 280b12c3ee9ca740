import { randomBytes } from "node:crypto";
import { expect, test } from "vitest";
import { DataKeyError, decryptSecret, encryptSecret, readDataKey } from "./data-encryption";

const key = randomBytes(32);

test("round trip; each sealing is different; nothing of the plaintext shows", () => {
  const a = encryptSecret(key, "ya29.secret-token", "connection:a:google");
  const b = encryptSecret(key, "ya29.secret-token", "connection:a:google");
  expect(a).not.toBe(b);
  expect(a).not.toContain("secret");
  expect(decryptSecret(key, a, "connection:a:google")).toBe("ya29.secret-token");
});

test("another context, another key or a flipped byte does not decrypt", () => {
  const sealed = encryptSecret(key, "token", "connection:a:google");
  expect(() => decryptSecret(key, sealed, "connection:b:google")).toThrow(DataKeyError);
  expect(() => decryptSecret(randomBytes(32), sealed, "connection:a:google")).toThrow(DataKeyError);
  const parts = sealed.split(".");
  const ct = Buffer.from(parts[3]!, "base64url");
  ct[0]! ^= 1;
  parts[3] = ct.toString("base64url");
  expect(() => decryptSecret(key, parts.join("."), "connection:a:google")).toThrow(DataKeyError);
});

test("the key: hex or base64 of 32 bytes, unset is null, anything else refused", () => {
  expect(readDataKey({})).toBeNull();
  expect(readDataKey({ DATA_ENCRYPTION_KEY: key.toString("hex") })).toEqual(key);
  expect(readDataKey({ DATA_ENCRYPTION_KEY: key.toString("base64") })).toEqual(key);
  expect(() => readDataKey({ DATA_ENCRYPTION_KEY: "short" })).toThrow(/32 bytes/);
});
