import { vi } from "vitest";

/**
 * Configures the four AI engines for tests that create AI jobs but never run them: a key each, and a base URL
 * at a closed local port, so nothing could leave the machine even if a runner picked a job up. Undo with
 * `vi.unstubAllEnvs()`.
 */
export function configureEnginesOffline(): void {
  for (const provider of ["OPENAI", "PERPLEXITY", "ANTHROPIC", "GEMINI"]) {
    vi.stubEnv(`${provider}_API_KEY`, "test-key");
    vi.stubEnv(`${provider}_BASE_URL`, "http://127.0.0.1:9");
  }
}
