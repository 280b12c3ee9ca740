import { readFileSync } from "node:fs";
import path from "node:path";
import { expect, test } from "vitest";
import { generatedFiles } from "../scripts/generate-routes";

const ROOT = path.resolve(import.meta.dirname, "..");

// The tool loaders and the route tables are generated from the catalogue and app/api; a tool or route added
// without `npm run generate` fails here instead of going unserved.
test("the generated runner and route tables match the catalogue and the route files", () => {
  for (const { file, content } of generatedFiles()) {
    expect(readFileSync(path.join(ROOT, file), "utf8"), `${file} is stale: run npm run generate`).toBe(
      content,
    );
  }
});
