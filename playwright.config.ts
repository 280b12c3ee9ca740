import { defineConfig } from "@playwright/test";

const port = Number(process.env.E2E_PORT ?? 3210);
export const E2E_BASE_URL = `http://127.0.0.1:${port}`;

export default defineConfig({
  testDir: "e2e",
  timeout: 60_000,
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: [["list"], ["json", { outputFile: process.env.E2E_REPORT ?? "reports/playwright.json" }]],
  use: {
    baseURL: E2E_BASE_URL,
    screenshot: "only-on-failure",
    launchOptions: {
      executablePath: process.env.CHROME_PATH ?? "/usr/bin/chromium",
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        "--disable-quic",
      ],
    },
  },
  projects: [
    { name: "api", testMatch: /api\/.*\.spec\.ts/ },
    {
      name: "dashboard",
      testMatch: /dashboard\/.*\.spec\.ts/,
      // The second pass runs against a server set up only in part (scripts/test.sh starts it with E2E_PARTIAL).
      testIgnore: process.env.E2E_PARTIAL ? [] : [/second-pass\.spec\.ts/],
      use: { browserName: "chromium" },
    },
  ],
  webServer: {
    command: `node --import tsx e2e/serve.ts`,
    // Ready once the API answers (401 without a key counts as up).
    url: `${E2E_BASE_URL}/api/v1/credits`,
    reuseExistingServer: false,
    // PGlite is created and migrated first; a busy machine can take minutes.
    timeout: 300_000,
    stdout: "pipe",
    env: {
      E2E_PORT: String(port),
      NEXT_TELEMETRY_DISABLED: "1",
      JOB_WORKER: process.env.JOB_WORKER ?? "on",
      // The server runs in production mode, where reverse DNS is on: the e2e bots' addresses would be looked
      // up on the machine's resolver, so the suite turns it off (its own tests use a fake resolver).
      TRACKING_REVERSE_DNS: process.env.TRACKING_REVERSE_DNS ?? "off",
    },
  },
});
