import { methods, withApiKey } from "@/lib/api/handler";
import { apiBaseUrl, postmanCollectionFor, rawJson } from "@/lib/openapi/serve";

// GET /api/v1/postman.json: a Postman v2.1 collection of every endpoint, importable as is (not enveloped)
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: withApiKey(async () =>
    rawJson(postmanCollectionFor(apiBaseUrl()), {
      "cache-control": "no-store",
      "content-disposition": 'attachment; filename="findable-api.postman_collection.json"',
    }),
  ),
});
