/**
 * The environment a provider reads its settings from: callers pass `process.env`, a test its own map. Every
 * provider reads it through its `read…Config(env)`, which returns null when the provider is not configured.
 */
export type Env = Record<string, string | undefined>;
