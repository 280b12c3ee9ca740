import { methods } from "@/lib/api/handler";
import { implement } from "@/lib/api/implement";
import { apiBaseUrl, openApiDocumentFor, rawJson } from "@/lib/openapi/serve";
import { openApiDocumentRoute } from "@/lib/routes/meta";

// GET /api/v1/openapi.json: the OpenAPI 3.1 document (public, not enveloped), derived from the route contracts
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: implement(openApiDocumentRoute, async () =>
    rawJson(openApiDocumentFor(apiBaseUrl()), {
      "cache-control": "public, max-age=300",
      "access-control-allow-origin": "*",
    }),
  ),
});
