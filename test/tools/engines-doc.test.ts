import { readFileSync } from "node:fs";
import path from "node:path";
import { expect, test } from "vitest";
import { ENGINE_CONFIGS } from "@/lib/providers/engines";

test("docs/operations.md's AI engines table names each engine's variables and default model", () => {
  const doc = readFileSync(path.resolve(__dirname, "../../docs/operations.md"), "utf8");
  const start = doc.indexOf("### Providers");
  expect(start).toBeGreaterThan(-1);
  const section = doc.slice(start, doc.indexOf("\n### ", start + 1));
  for (const [engine, config] of Object.entries(ENGINE_CONFIGS)) {
    const row = section.split("\n").find((line) => line.startsWith(`| ${engine} |`));
    expect(row, engine).toBeDefined();
    for (const part of [
      config.apiKeyEnv,
      config.baseUrlEnv,
      config.modelEnv,
      `(\`${config.defaultModel}\`)`,
    ]) {
      expect(row).toContain(part);
    }
  }
});
