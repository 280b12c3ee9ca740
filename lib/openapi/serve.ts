import { buildOpenApiDocument, type OpenApiDocument } from "./document";
import { buildPostmanCollection } from "./postman";

/**
 * Where /api/v1 is served: PUBLIC_BASE_URL, else the address the server listens on. Never a request's
 * Host or X-Forwarded-Host, which a client chooses (a cached document would hand its address to others).
 */
export function apiBaseUrl(
  env: { PUBLIC_BASE_URL?: string; HOST?: string; PORT?: string } = process.env as Record<string, string>,
): string {
  const configured = env.PUBLIC_BASE_URL?.trim();
  const base = configured || `http://${env.HOST || "localhost"}:${env.PORT || "3000"}`;
  return `${base.replace(/\/+$/, "")}/api/v1`;
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
