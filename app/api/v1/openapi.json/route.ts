import { methods, withPublicApi } from "@/lib/api/handler";
import { apiBaseUrl, openApiDocumentFor, rawJson } from "@/lib/openapi/serve";

// GET /api/v1/openapi.json: the OpenAPI 3.1 document (public, not enveloped), generated from the routes' zod schemas
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: withPublicApi(async () =>
    rawJson(openApiDocumentFor(apiBaseUrl()), {
      "cache-control": "public, max-age=300",
      "access-control-allow-origin": "*",
    }),
  ),
});
