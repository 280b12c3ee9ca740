import { buildOpenApiDocument, type OpenApiDocument } from "./document";
import { buildPostmanCollection } from "./postman";

/** Where /api/v1 is served, as the client reached it (a TLS-terminating proxy sets X-Forwarded-*). */
export function apiBaseUrl(req: Request, url: URL): string {
  const proto = req.headers.get("x-forwarded-proto")?.split(",")[0]?.trim() || url.protocol.replace(":", "");
  const host =
    req.headers.get("x-forwarded-host")?.split(",")[0]?.trim() || req.headers.get("host") || url.host;
  return `${proto}://${host}/api/v1`;
}

// Building walks every zod schema; keep each base URL's document for an hour (its examples carry dates).
const TTL_MS = 60 * 60 * 1000;
const cache = new Map<string, { at: number; doc: OpenApiDocument }>();

export function openApiDocumentFor(serverUrl: string): OpenApiDocument {
  const hit = cache.get(serverUrl);
  if (hit && Date.now() - hit.at < TTL_MS) return hit.doc;
  const doc = buildOpenApiDocument({ serverUrl });
  if (cache.size > 50) cache.clear();
  cache.set(serverUrl, { at: Date.now(), doc });
  return doc;
}

export function postmanCollectionFor(serverUrl: string) {
  return buildPostmanCollection(openApiDocumentFor(serverUrl));
}

export function rawJson(body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body, null, 2), {
    status: 200,
    headers: { "content-type": "application/json; charset=utf-8", ...headers },
  });
}
