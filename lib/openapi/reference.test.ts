import { describe, expect, test } from "vitest";
import { TAGS } from "@/lib/routes/contract";
import { buildOpenApiDocument } from "./document";
import { API_ROUTES } from "./operations";
import { curlExample, fieldRows, operationsByTag, responseSummary, typeLabel } from "./reference";

const doc = buildOpenApiDocument();

describe("the API reference's view of the document", () => {
  test("every operation under its tag, in tag order", () => {
    const groups = operationsByTag(doc);
    expect(groups.map((g) => g.name)).toEqual(TAGS.map((t) => t.name));
    expect(groups.flatMap((g) => g.operations)).toHaveLength(API_ROUTES.length);
  });

  test("request body fields: type, required, constraints", () => {
    const body = doc.paths["/ai-citation-check"]!.post!.requestBody!.content["application/json"]!.schema;
    const rows = Object.fromEntries(fieldRows(doc, body).map((r) => [r.name, r]));
    expect(rows.prompt).toMatchObject({
      type: "string",
      required: true,
      constraints: ["min length 1", "max length 2000"],
    });
    expect(rows.engines).toMatchObject({
      required: false,
      type: 'array of "ChatGPT" | "Perplexity" | "Claude" | "Gemini"',
    });
    expect(rows.engines!.constraints).toEqual(
      expect.arrayContaining([
        "min items 1",
        "max items 4",
        'default ["ChatGPT","Perplexity","Claude","Gemini"]',
      ]),
    );
    expect(typeLabel(doc, { $ref: "#/components/schemas/Job" })).toBe("Job");
  });

  test("curl examples carry the credentials, the body and the query", () => {
    const audits = curlExample("/audits", "post", doc.paths["/audits"]!.post!, "$BASE");
    expect(audits).toContain('curl -s -X POST "$BASE/audits"');
    expect(audits).toContain('-H "x-api-key: $KEY"');
    expect(audits).toContain(`--data '{"url":"https://example.com/"}'`);
    const citations = curlExample("/citations", "get", doc.paths["/citations"]!.get!, "$BASE");
    expect(citations).toContain('"$BASE/citations?domain=example.com&days=30&limit=50"');
    const open = curlExample("/openapi.json", "get", doc.paths["/openapi.json"]!.get!, "$BASE");
    expect(open).not.toContain("x-api-key");
  });

  test("error responses are summarised by their codes", () => {
    const r = doc.paths["/credits"]!.get!.responses["403"]!;
    expect(responseSummary(doc, r)).toContain("HTTPS_REQUIRED");
  });
});
