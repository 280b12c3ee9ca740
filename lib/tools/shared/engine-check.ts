/** Credits per engine asked, for every tool that asks the AI engines (ai-citation-check, brand-visibility). */
export const COST_PER_ENGINE = 100;
/** The time limit of a check; the engines' retries stop starting waits that would pass it. */
export const ENGINE_CHECK_TIMEOUT_MS = 150_000;
