import { readFileSync } from "node:fs";
import path from "node:path";
import { expect, test } from "vitest";
import { renderApiMarkdown } from "@/lib/docs/api-markdown";
import { TOOL_NAMES, TOOLS } from "@/lib/tools/catalog";

test("docs/api.md is what `npm run docs:api` writes from the contracts (run it after changing them)", () => {
  const committed = readFileSync(path.resolve("docs/api.md"), "utf8");
  expect(committed).toBe(renderApiMarkdown());
});

test("docs/api.md names every tool with its title and endpoint", () => {
  const text = renderApiMarkdown();
  for (const name of TOOL_NAMES) {
    expect(text).toContain(`| ${TOOLS[name].title} | \`POST /${name}\``);
  }
});
