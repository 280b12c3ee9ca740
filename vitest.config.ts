import path from "node:path";
import { defineConfig } from "vitest/config";

// Tests that drive a real Chromium: minutes each and CPU-bound, so they run after the rest, one file at a time.
const BROWSER_TESTS = ["lib/cwv/cwv.test.ts", "test/cwv/**/*.test.ts"];

export default defineConfig({
  resolve: { alias: { "@": path.resolve(import.meta.dirname) } },
  test: {
    environment: "node",
    exclude: ["node_modules/**", ".next/**", "e2e/**", ".data/**"],
    globalSetup: ["test/global-setup.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Each test file in a process of its own with a fresh module graph: the file-scoped fixtures of
    // test/support/fixtures.ts (a database, a server) are made per file and never shared between files.
    pool: "forks",
    isolate: true,
    projects: [
      { extends: true, test: { name: "unit", include: ["**/*.test.ts"], exclude: BROWSER_TESTS } },
      {
        extends: true,
        test: {
          name: "browser",
          include: BROWSER_TESTS,
          fileParallelism: false,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
