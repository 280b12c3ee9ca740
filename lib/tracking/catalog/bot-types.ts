import type { RangeSourceKey } from "./ip-ranges/sources";

export const BOT_PURPOSES = [
  "training",
  "ai_search",
  "ai_user_fetch",
  "ai_assistant",
  "agentic_browser",
  "search_engine",
  "seo",
  "other",
] as const;
export type BotPurpose = (typeof BOT_PURPOSES)[number];

/** AI answer engines, named as citations report them (the `bot` of GET /citations). */
export const AI_ENGINES = [
  "ChatGPT",
  "Perplexity",
  "Claude",
  "Gemini",
  "Copilot",
  "Meta AI",
  "DuckAssist",
  "You.com",
  "Mistral",
  "Grok",
  "DeepSeek",
  "Alexa",
  "Cohere",
  "NotebookLM",
  "Duck.ai",
  "Phind",
  "Kagi",
  "Kimi",
  "Qwen",
  "Doubao",
  "ERNIE",
  "ChatGLM",
  "iAsk",
  "Jasper",
  "Writesonic",
  "Chat+",
  // Assistants of the public AI-agent list that no engine above names: counted under their own name.
  "Ai2",
  "Amazon Q Business",
  "Big Sur AI",
  "GeistHaus",
  "Klaviyo",
  "Liner",
  "Parallel",
  "Poggio",
  "Qualified",
  "UseAI",
] as const;
export type AiEngine = (typeof AI_ENGINES)[number];

export interface BotDefinition {
  /** Display name, as shown in stats (`topBots[].name`). */
  name: string;
  /** Matches the user agent; null for robots.txt tokens that no crawler sends (see `robotsTxtOnly`). */
  userAgent: RegExp | null;
  /** The token site owners write in robots.txt for this bot, when it has one of its own. */
  robotsToken: string | null;
  /** Who runs it; null when nobody documents it (a few agents of the public AI-agent list). */
  operator: string | null;
  purpose: BotPurpose;
  /** The AI engine this bot serves, when it serves one. */
  engine: AiEngine | null;
  isAIBot: boolean;
  /** Published IP lists its requests come from; empty when the operator publishes none. */
  ipRanges: readonly RangeSourceKey[];
  /** Never appears in a user agent: a robots.txt switch over what another crawler fetched. */
  robotsTxtOnly?: true;
  note?: string;
}

export const GOOGLE_USER_FETCHERS: RangeSourceKey[] = [
  "google-user-triggered-fetchers",
  "google-user-triggered-fetchers-google",
];

type Def = Omit<BotDefinition, "robotsToken" | "ipRanges"> & {
  robotsToken?: string | null;
  ipRanges?: readonly RangeSourceKey[];
};

/** Fills in the defaults (robots token = name, no ranges) and freezes each definition. */
export function defineBots(defs: Def[]): readonly BotDefinition[] {
  return defs.map((d) =>
    Object.freeze({
      ...d,
      robotsToken: d.robotsToken === undefined ? d.name : d.robotsToken,
      ipRanges: d.ipRanges ?? [],
    }),
  );
}
