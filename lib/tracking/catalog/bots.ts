import { AI_AGENT_LIST, definitionsFromAgentList } from "./ai-agents-list";
import type { BotDefinition } from "./bot-types";
import { AI_BOT_DEFINITIONS } from "./bots-ai";
import { WEB_BOT_DEFINITIONS } from "./bots-web";

export type { AiEngine, BotDefinition, BotPurpose } from "./bot-types";
export { AI_ENGINES, BOT_PURPOSES } from "./bot-types";

const OWN_DEFINITIONS: readonly BotDefinition[] = [...AI_BOT_DEFINITIONS, ...WEB_BOT_DEFINITIONS];

/**
 * Our own table of AI and important web bots, then every other agent of the vendored AI-agent list; checked
 * before any generic list; first match wins.
 */
export const BOT_DEFINITIONS: readonly BotDefinition[] = [
  ...OWN_DEFINITIONS,
  ...definitionsFromAgentList(AI_AGENT_LIST, OWN_DEFINITIONS),
];

const BY_NAME = new Map(BOT_DEFINITIONS.map((d) => [d.name.toLowerCase(), d]));

/** The definition of a bot by its display name (case-insensitive). */
export function getBotDefinition(name: string): BotDefinition | undefined {
  return BY_NAME.get(name.toLowerCase());
}
