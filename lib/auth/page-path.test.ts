import { describe, expect, test } from "vitest";
import { signInPathFor } from "./page-path";

describe("the way back after sign-in", () => {
  test.each([
    ["/dashboard/bots?days=7", "/login?next=%2Fdashboard%2Fbots%3Fdays%3D7"],
    [
      "/dashboard/jobs/7f0c1a2b-3c4d-4e5f-8a9b-0c1d2e3f4a5b",
      "/login?next=%2Fdashboard%2Fjobs%2F7f0c1a2b-3c4d-4e5f-8a9b-0c1d2e3f4a5b",
    ],
    ["/dashboard", "/login"],
    [null, "/login"],
    ["/dashboardx", "/login"],
    ["//evil.test/dashboard", "/login"],
    ["/dashboard/\\evil", "/login"],
    ["/dashboard/a\r\nb", "/login"],
    [`/dashboard/${"a".repeat(1000)}`, "/login"],
  ])("%s → %s", (path, expected) => {
    expect(signInPathFor(path)).toBe(expected);
  });
});
