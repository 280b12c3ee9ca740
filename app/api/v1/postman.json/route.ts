import { methods } from "@/lib/api/handler";
import { implement } from "@/lib/api/implement";
import { apiBaseUrl, postmanCollectionFor, rawJson } from "@/lib/openapi/serve";
import { postmanCollectionRoute } from "@/lib/routes/meta";

// GET /api/v1/postman.json: a Postman v2.1 collection of every endpoint, importable as is (not enveloped)
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: implement(postmanCollectionRoute, async () =>
    rawJson(postmanCollectionFor(apiBaseUrl()), {
      "cache-control": "no-store",
      "content-disposition": 'attachment; filename="findable-api.postman_collection.json"',
    }),
  ),
});
