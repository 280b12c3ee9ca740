import { describe, expect, test } from "vitest";
import { buildOpenApiDocument, operationsOf } from "@/lib/openapi/document";
import { curlSnippet, javascriptSnippet, pythonSnippet, requestSample, responseSample } from "./snippets";

const doc = buildOpenApiDocument({ serverUrl: "/api/v1" });
const KEY = "sk_live_abc123";

describe("API reference examples", () => {
  test("every operation has a request in three languages with the key id, and a response example", () => {
    for (const { path, method, op, legacy } of operationsOf(doc)) {
      const base = legacy ? "https://api.example.com/api" : "https://api.example.com/api/v1";
      const sample = { ...requestSample(path, method, op, base), bearer: legacy };
      expect(sample.url.startsWith(`${base}/`), op.operationId).toBe(true);
      expect(sample.url).not.toMatch(/[{}]/);
      const snippets = [curlSnippet(sample, KEY), javascriptSnippet(sample, KEY), pythonSnippet(sample, KEY)];
      for (const code of snippets) {
        expect(code, op.operationId).toContain(sample.method === "GET" ? sample.url : sample.url);
        if (sample.authenticated) expect(code, op.operationId).toContain(KEY);
        expect(code).not.toMatch(/sks_/);
      }
      expect(responseSample(doc, op), op.operationId).not.toBeNull();
    }
  });

  test("a tool's POST: its example body in curl, JavaScript and Python", () => {
    const op = doc.paths["/audits"]!.post!;
    const sample = requestSample("/audits", "post", op, "https://x.test/api/v1");
    expect(curlSnippet(sample, KEY)).toBe(
      [
        'curl -s -X POST "https://x.test/api/v1/audits"',
        `-H "x-api-key: ${KEY}"`,
        '-H "x-api-secret: $API_SECRET"',
        '-H "content-type: application/json"',
        `--data '${JSON.stringify(sample.json)}'`,
      ].join(" \\\n  "),
    );
    expect(javascriptSnippet(sample, KEY)).toContain(`"x-api-key": "${KEY}"`);
    expect(javascriptSnippet(sample, KEY)).toContain("body: JSON.stringify({");
    const py = pythonSnippet(sample, KEY);
    expect(py).toContain("res = requests.post(");
    expect(py).toContain('json={\n        "url": ');
    expect(py).not.toContain('"content-type"');
    const response = responseSample(doc, op)!;
    expect(response.status).toBe("202");
    expect(response.body).toMatchObject({ success: true });
  });
});
