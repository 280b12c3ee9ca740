import { promisify } from "node:util";
import zlib from "node:zlib";
import { FetchError } from "./errors";

const gunzip = promisify(zlib.gunzip);
const inflate = promisify(zlib.inflate);
const inflateRaw = promisify(zlib.inflateRaw);
const brotliDecompress = promisify(zlib.brotliDecompress);

/**
 * Reads a response body stream, aborting as soon as it passes `maxBytes` so a huge or endless
 * body costs no more than the cap.
 */
export async function readCapped(
  stream: AsyncIterable<Buffer> & { destroy(err?: Error): void },
  maxBytes: number,
  url: string,
): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of stream) {
    total += chunk.length;
    if (total > maxBytes) {
      stream.destroy();
      throw tooLarge(url, maxBytes);
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, total);
}

/**
 * Undoes Content-Encoding (applied in order, so undone in reverse). The decoded size is capped
 * too, which is what stops a small gzip bomb. Unknown tokens are left alone: servers send
 * nonsense like "Content-Encoding: utf-8" and the body is usually plain.
 */
export async function decodeBody(
  raw: Buffer,
  contentEncoding: string | undefined,
  maxBytes: number,
  url: string,
) {
  const codings = (contentEncoding ?? "")
    .split(",")
    .map((c) => c.trim().toLowerCase())
    .filter((c) => c && c !== "identity")
    .reverse();
  let body = raw;
  for (const coding of codings) {
    const opts = { maxOutputLength: maxBytes };
    try {
      if (coding === "gzip" || coding === "x-gzip") body = await gunzip(body, opts);
      else if (coding === "br") body = await brotliDecompress(body, opts);
      // "deflate" is meant to be zlib-wrapped, but some servers send raw deflate.
      else if (coding === "deflate")
        body = looksZlibWrapped(body) ? await inflate(body, opts) : await inflateRaw(body, opts);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "ERR_BUFFER_TOO_LARGE") throw tooLarge(url, maxBytes);
      throw new FetchError("FETCH_FAILED", `The response from ${url} could not be decoded (${coding}).`, {
        url,
      });
    }
  }
  return body;
}

function looksZlibWrapped(buf: Buffer): boolean {
  const [b0, b1] = buf;
  return b0 !== undefined && b1 !== undefined && (b0 & 0x0f) === 8 && ((b0 << 8) | b1) % 31 === 0;
}

function tooLarge(url: string, maxBytes: number) {
  const mib = (maxBytes / 1024 / 1024).toFixed(maxBytes < 1024 * 1024 ? 2 : 0);
  return new FetchError(
    "RESPONSE_TOO_LARGE",
    `The response from ${url} is larger than the ${mib} MiB limit.`,
    {
      url,
      maxBytes,
    },
  );
}

/** The charset from Content-Type, a BOM, or an HTML meta tag; UTF-8 when none is named. */
export function decodeText(body: Buffer, contentType: string | undefined): string {
  const label = findCharset(body, contentType) ?? "utf-8";
  let decoder: TextDecoder;
  try {
    decoder = new TextDecoder(label);
  } catch {
    decoder = new TextDecoder("utf-8");
  }
  return decoder.encoding === "windows-1252" ? decodeWindows1252(body) : decoder.decode(body);
}

// 0x80..0x9f of windows-1252 (also what "iso-8859-1" means on the web); Node 20's TextDecoder
// decodes them as C1 controls, which turns curly quotes and dashes into garbage.
const CP1252_HIGH =
  "\u20ac\u0081\u201a\u0192\u201e\u2026\u2020\u2021\u02c6\u2030\u0160\u2039\u0152\u008d\u017d\u008f" +
  "\u0090\u2018\u2019\u201c\u201d\u2022\u2013\u2014\u02dc\u2122\u0161\u203a\u0153\u009d\u017e\u0178";

function decodeWindows1252(body: Buffer): string {
  let out = "";
  for (const byte of body)
    out += byte >= 0x80 && byte <= 0x9f ? CP1252_HIGH[byte - 0x80] : String.fromCharCode(byte);
  return out;
}

function findCharset(body: Buffer, contentType: string | undefined): string | undefined {
  const fromHeader = contentType?.match(/charset\s*=\s*"?([\w.:-]+)/i)?.[1];
  if (fromHeader) return fromHeader;
  if (body[0] === 0xef && body[1] === 0xbb && body[2] === 0xbf) return "utf-8";
  if (body[0] === 0xfe && body[1] === 0xff) return "utf-16be";
  if (body[0] === 0xff && body[1] === 0xfe) return "utf-16le";
  if (!contentType || /html/i.test(contentType)) {
    const head = body.subarray(0, 1024).toString("latin1");
    return head.match(/<meta[^>]+charset\s*=\s*["']?([\w.:-]+)/i)?.[1];
  }
  return undefined;
}
