import type { KnipConfig } from "knip";

// knip finds unused files, exports and dependencies; `npm test` fails on any finding (scripts/test.sh).
// The plugins read their own entries: Next.js (app/, proxy.ts, instrumentation.ts, next.config.ts), Vitest
// (every *.test.ts and test/global-setup.ts), Playwright (e2e/**/*.spec.ts and its webServer, e2e/serve.ts),
// Drizzle (drizzle.config.ts), and the package.json scripts (scripts/*.ts, bench/*.ts, e2e/newman.ts). The
// entries below are the files started another way.
const config: KnipConfig = {
  entry: [
    // The production server (`npm start` runs it through scripts/start.ts).
    "server.ts",
    // scripts/test.sh runs it with node after the test runs.
    "scripts/test-summary.mjs",
    // package.json runs it as `tsx --expose-gc bench/tracking.ts`, where knip takes the path for the flag's value.
    "bench/tracking.ts",
    // The tool worker threads' entry: lib/jobs/tool-pool.ts starts it by path with `new Worker`.
    "lib/jobs/tool-worker.mjs",
    // Rebuilds the keyword background table by hand (lib/keywords/background/README.md).
    "lib/keywords/background/build-background.ts",
    // Child processes the tests spawn by path with `node --import tsx`.
    "test/support/serve-*.ts",
    "test/db/hold-folder.ts",
  ],
  project: ["**/*.{ts,tsx,mjs,cjs,css}"],
  // e2e/newman-run.ts loads newman with createRequire (the package ships no types), which knip does not follow.
  ignoreDependencies: ["newman"],
};

export default config;
