import { defineRoute } from "./contract";

/** GET /openapi.json: the OpenAPI 3.1 document (public, not enveloped), derived from the route contracts. */
export const openApiDocumentRoute = defineRoute({
  method: "get",
  path: "/openapi.json",
  operationId: "getOpenApiDocument",
  tag: "Meta",
  summary: "This OpenAPI 3.1 document",
  description:
    "The OpenAPI 3.1 document of /api/v1, generated from the zod schemas the routes validate with. Public: no credentials needed. The body is the document itself, not the envelope.",
  public: true,
  success: { status: 200, description: "The OpenAPI document.", raw: { ref: "OpenApiDocument" } },
  errors: [],
});

/** GET /postman.json: a Postman v2.1 collection of every endpoint, importable as is (not enveloped). */
export const postmanCollectionRoute = defineRoute({
  method: "get",
  path: "/postman.json",
  operationId: "getPostmanCollection",
  tag: "Meta",
  summary: "A Postman collection of every endpoint",
  description:
    "A Postman v2.1 collection generated from this document, importable as is (the body is the collection, not the envelope): folders per tag, variables `baseUrl`, `apiKey`, `apiSecret`, `domain`, `siteUrl`, an example body and a test script per request. Run it with newman: `newman run postman.json --env-var baseUrl=… --env-var apiKey=… --env-var apiSecret=…`.",
  success: { status: 200, description: "The collection.", raw: { ref: "PostmanCollection" } },
  errors: [],
});
