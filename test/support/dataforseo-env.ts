import { vi } from "vitest";

/**
 * Configures DataForSEO for this test file so that the keyword and backlink tools can be created (their
 * availability needs a provider or an imported web graph). The base URL is a closed local port: a job that
 * does run fails with DATAFORSEO_UNREACHABLE instead of reaching the internet.
 */
export function stubDataForSeoEnv(baseUrl = "http://127.0.0.1:9"): void {
  vi.stubEnv("DATAFORSEO_LOGIN", "test-login");
  vi.stubEnv("DATAFORSEO_PASSWORD", "test-password");
  vi.stubEnv("DATAFORSEO_BASE_URL", baseUrl);
}
