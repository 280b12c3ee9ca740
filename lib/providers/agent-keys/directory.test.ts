import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createGuardedFetch, FetchError } from "@/lib/fetch";
import { agentKeyPair } from "@/test/fakes/web-bot-auth";
import {
  cacheLifetime,
  DEFAULT_CACHE_SECONDS,
  DIRECTORY_MEDIA_TYPE,
  fetchKeyDirectory,
  KeyDirectoryError,
  MAX_CACHE_SECONDS,
  MIN_CACHE_SECONDS,
} from "./directory";

const key = agentKeyPair();
let server: http.Server;
let base: string;
const seen: { accept?: string }[] = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    seen.push({ accept: req.headers.accept });
    if (req.url === "/.well-known/http-message-signatures-directory") {
      res.writeHead(200, { "content-type": DIRECTORY_MEDIA_TYPE, "cache-control": "public, max-age=600" });
      res.end(JSON.stringify({ keys: [{ ...key.jwk, kid: key.keyid }] }));
    } else if (req.url === "/moved") {
      res.writeHead(302, { location: "/.well-known/http-message-signatures-directory" }).end();
    } else if (req.url === "/card" || req.url === "/card-inline" || req.url === "/card-elsewhere") {
      const own = req.url === "/card-elsewhere" ? `${base}/card` : `${base}${req.url}`;
      const keys =
        req.url === "/card-inline"
          ? { jwks: { keys: [{ ...key.jwk, kid: "my-key" }] } }
          : { jwks_uri: `${base}/.well-known/http-message-signatures-directory` };
      res.writeHead(200, { "content-type": "application/json", "cache-control": "max-age=120" });
      res.end(JSON.stringify({ client_id: own, client_name: "Example Bot", ...keys }));
    } else if (req.url === "/not-jwks") {
      res.writeHead(200, { "content-type": "application/json" }).end('{"hello":1}');
    } else res.writeHead(500).end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

describe("fetchKeyDirectory", () => {
  const fetch = createGuardedFetch({ allowPrivateTargets: "loopback" });

  test("a directory: its Ed25519 keys by thumbprint, cached for its max-age, asked for by media type", async () => {
    const directory = await fetchKeyDirectory(`${base}/.well-known/http-message-signatures-directory`, {
      fetch,
      now: () => 1_000_000,
    });
    expect([...directory.keys.keys()]).toEqual([key.keyid]);
    expect(directory.freshUntil).toBe(1_000_000 + 600_000);
    expect(seen.at(-1)?.accept).toContain(DIRECTORY_MEDIA_TYPE);
  });

  test("a redirect, an error status or a body that is no key set: not a directory", async () => {
    await expect(fetchKeyDirectory(`${base}/moved`, { fetch })).rejects.toThrow(KeyDirectoryError);
    await expect(fetchKeyDirectory(`${base}/broken`, { fetch })).rejects.toThrow(/HTTP 500/);
    await expect(fetchKeyDirectory(`${base}/not-jwks`, { fetch })).rejects.toThrow(/JSON Web Key Set/);
  });

  test("a Signature Agent Card: its own keys, or the key set it names, kept as long as both may be", async () => {
    const viaUri = await fetchKeyDirectory(`${base}/card`, { fetch, now: () => 1_000_000, card: true });
    expect([...viaUri.keys.keys()]).toEqual([key.keyid]);
    expect(viaUri.url).toBe(`${base}/card`);
    // The card may be kept 120 s, its key set 600 s: the keys are as fresh as the shorter.
    expect(viaUri.freshUntil).toBe(1_000_000 + 120_000);
    const inline = await fetchKeyDirectory(`${base}/card-inline`, { fetch, card: true });
    expect([...inline.keys.keys()]).toEqual([key.keyid]);
    await expect(fetchKeyDirectory(`${base}/card-elsewhere`, { fetch, card: true })).rejects.toThrow(
      "client_id must match the card URL",
    );
    // A key set read as a card, and a card read as a key set, are neither.
    await expect(
      fetchKeyDirectory(`${base}/.well-known/http-message-signatures-directory`, { fetch, card: true }),
    ).rejects.toMatchObject({ code: "KEY_DIRECTORY_NOT_CARD" });
    await expect(fetchKeyDirectory(`${base}/card`, { fetch })).rejects.toMatchObject({
      code: "KEY_DIRECTORY_NOT_JWKS",
    });
  });

  test("the guarded fetcher's address rule applies: a private address is refused unless allowed", async () => {
    const strict = createGuardedFetch({ allowPrivateTargets: false });
    await expect(
      fetchKeyDirectory(`${base}/.well-known/http-message-signatures-directory`, { fetch: strict }),
    ).rejects.toBeInstanceOf(FetchError);
  });
});

describe("cacheLifetime", () => {
  const now = Date.parse("2031-06-20T12:00:00Z");
  test.each([
    [{ "cache-control": ["max-age=86400"] }, 86400],
    [{ "cache-control": ["public", "max-age=7200, must-revalidate"] }, 7200],
    [{ "cache-control": ["no-store"] }, MIN_CACHE_SECONDS],
    [{ "cache-control": ["max-age=5"] }, MIN_CACHE_SECONDS],
    [{ "cache-control": ["max-age=9999999"] }, MAX_CACHE_SECONDS],
    [{ expires: ["Fri, 20 Jun 2031 14:00:00 GMT"], date: ["Fri, 20 Jun 2031 12:00:00 GMT"] }, 7200],
    [{ expires: ["Fri, 20 Jun 2031 13:00:00 GMT"] }, 3600],
    [{ expires: ["0"] }, MIN_CACHE_SECONDS],
    [{}, DEFAULT_CACHE_SECONDS],
  ] as [Record<string, string[]>, number][])("%j: %i s", (headers, seconds) => {
    expect(cacheLifetime(headers, now)).toBe(seconds);
  });
});
