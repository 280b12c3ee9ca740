import { validationError } from "@/lib/errors";
import { readStreamCapped } from "@/lib/streams/read-capped";

/** Largest access log taken in one request, after decompression. */
export const MAX_LOG_BYTES = 10 * 1024 * 1024;

// JSON and JSON lines as log drains send them (Vercel: application/json for its JSON arrays, application/x-ndjson).
const TEXT_TYPES =
  /^(text\/[a-z0-9.+-]+|application\/(?:octet-stream|json|x-ndjson|ndjson|jsonl|x-jsonlines|jsonlines))\b/i;
const GZIP_TYPES = /^application\/(x-)?gzip\b/i;

const tooLarge = (max: number) =>
  validationError(
    `The log is larger than ${max / 1024 / 1024} MB uncompressed; split it into several uploads.`,
    [{ field: "body", message: `Larger than ${max} bytes uncompressed.` }],
    { reason: "body_too_large", maxBytes: max },
  );

/**
 * Reads an uploaded access log: text (text/plain, JSON, JSON lines, or no content type), or gzip (Content-Encoding:
 * gzip, Content-Type: application/gzip, or the gzip magic bytes). Streams through the decompressor and refuses as
 * soon as the text passes `maxBytes`, before anything is stored, so a gzip bomb costs us at most that much memory.
 */
export async function readLogUpload(req: Request, maxBytes = MAX_LOG_BYTES): Promise<Uint8Array> {
  const type = (req.headers.get("content-type") ?? "").trim();
  const encoding = (req.headers.get("content-encoding") ?? "identity").trim().toLowerCase();
  // A push service may send no content type at all (Cloudflare Logpush's HTTP destination): the body is read as a
  // log, gzip found by its Content-Encoding or magic bytes. A type that names something else is refused.
  if (type !== "" && !TEXT_TYPES.test(type) && !GZIP_TYPES.test(type)) {
    throw validationError(
      "Send the log as text/plain, application/json or application/x-ndjson (optionally with Content-Encoding: gzip), or as application/gzip.",
      [{ field: "content-type", message: `Unsupported content type: ${type}.` }],
      { reason: "unsupported_content_type" },
    );
  }
  if (encoding !== "identity" && encoding !== "gzip" && encoding !== "x-gzip") {
    throw validationError(
      `Unsupported Content-Encoding: ${encoding}. Use gzip or none.`,
      [{ field: "content-encoding", message: "Only gzip is supported." }],
      { reason: "unsupported_content_encoding" },
    );
  }
  if (Number(req.headers.get("content-length") ?? "0") > maxBytes) throw tooLarge(maxBytes);
  if (!req.body) return new Uint8Array();
  const raw = await readStreamCapped(req.body, maxBytes, () => tooLarge(maxBytes));
  const gzipped =
    encoding !== "identity" ||
    GZIP_TYPES.test(type) ||
    (raw[0] === 0x1f && raw[1] === 0x8b && raw.length > 2);
  if (!gzipped) return raw;
  const inflated = new Blob([raw as Uint8Array<ArrayBuffer>])
    .stream()
    .pipeThrough(new DecompressionStream("gzip"));
  try {
    return await readStreamCapped(inflated, maxBytes, () => tooLarge(maxBytes));
  } catch (err) {
    if (err instanceof Error && err.name === "AppError") throw err;
    throw validationError("The body is not valid gzip.", [{ field: "body", message: "Corrupt gzip data." }], {
      reason: "malformed_gzip",
    });
  }
}
