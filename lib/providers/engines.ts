import { ANTHROPIC_CONFIG } from "./anthropic/config";
import {
  ENGINE_NAMES,
  type EngineName,
  type Env,
  type ProviderConfig,
  resolveProvider,
} from "./engine-types";
import { GEMINI_CONFIG } from "./gemini/config";
import { OPENAI_CONFIG } from "./openai/config";
import { PERPLEXITY_CONFIG } from "./perplexity/config";

/** Each engine's provider configuration. Free of SDK imports: safe for the catalogue, routes and dashboard. */
export const ENGINE_CONFIGS: Record<EngineName, ProviderConfig> = {
  ChatGPT: OPENAI_CONFIG,
  Perplexity: PERPLEXITY_CONFIG,
  Claude: ANTHROPIC_CONFIG,
  Gemini: GEMINI_CONFIG,
};

/** The models used when `<PROVIDER>_MODEL` is not set. */
export const DEFAULT_MODELS: Record<EngineName, string> = {
  ChatGPT: OPENAI_CONFIG.defaultModel,
  Perplexity: PERPLEXITY_CONFIG.defaultModel,
  Claude: ANTHROPIC_CONFIG.defaultModel,
  Gemini: GEMINI_CONFIG.defaultModel,
};

/** Each engine's key variable, for the catalogue's configuration hints (`requires`). */
export const ENGINE_REQUIREMENTS: readonly { env: string; label: EngineName }[] = ENGINE_NAMES.map(
  (name) => ({
    env: ENGINE_CONFIGS[name].apiKeyEnv,
    label: name,
  }),
);

export interface EngineStatus {
  name: EngineName;
  configured: boolean;
  model: string;
  /** The variable that configures the engine (its API key). */
  envVar: string;
}

/** The four engines, whether this deployment has a key for each, and the model each would use. */
export function listEngines(env: Env = process.env): EngineStatus[] {
  return ENGINE_NAMES.map((name) => {
    const config = ENGINE_CONFIGS[name];
    const resolved = resolveProvider(config, env);
    return { name, configured: resolved.apiKey !== "", model: resolved.model, envVar: config.apiKeyEnv };
  });
}

export function listConfiguredEngines(env: Env = process.env): EngineName[] {
  return listEngines(env)
    .filter((e) => e.configured)
    .map((e) => e.name);
}

/** The engines of `wanted` that cannot run here, each with the variable to set. */
export function findUnconfiguredEngines(
  wanted: readonly EngineName[],
  env: Env = process.env,
): { name: EngineName; envVar: string }[] {
  const statuses = new Map(listEngines(env).map((e) => [e.name, e]));
  return wanted
    .map((name) => statuses.get(name)!)
    .filter((e) => !e.configured)
    .map((e) => ({ name: e.name, envVar: e.envVar }));
}

export { ENGINE_NAMES, type EngineName, type Env };

export type EngineAvailability =
  | { ok: true }
  | { ok: false; reason: string; configured: EngineName[]; missing: { name: EngineName; envVar: string }[] };

/**
 * Whether every engine asked for can run here, checked before any charge. The refusal names what is missing,
 * the variable that configures it, and the engines the caller can pass instead.
 */
export function checkEngineAvailability(
  wanted: readonly EngineName[],
  env: Env = process.env,
): EngineAvailability {
  const missing = findUnconfiguredEngines(wanted, env);
  if (missing.length === 0) return { ok: true };
  const configured = listConfiguredEngines(env);
  const names = missing.map((m) => `${m.name} (${m.envVar})`).join(", ");
  const verb = missing.length === 1 ? "is" : "are";
  const instead =
    configured.length === 0
      ? "No AI engine is configured on this service."
      : `Configured engines: ${configured.join(", ")}; pass engines: ${JSON.stringify(configured)}.`;
  return {
    ok: false,
    reason: `${names} ${verb} not configured on this service. ${instead}`,
    configured,
    missing,
  };
}
