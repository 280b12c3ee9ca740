import { readFileSync } from "node:fs";
import path from "node:path";
import { expect, test } from "vitest";
import { ENGINE_CONFIGS } from "@/lib/providers/engines";

test("the README's AI engines table names each engine's variables and default model", () => {
  const readme = readFileSync(path.resolve(__dirname, "../../README.md"), "utf8");
  const section = readme.slice(readme.indexOf("## AI engines"), readme.indexOf("## Tracking"));
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
