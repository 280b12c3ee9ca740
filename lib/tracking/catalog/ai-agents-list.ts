// The public list of AI agents (ai.robots.txt, MIT licence; see data/README.md), turned into bot definitions.
// `npm run tracking:refresh-agents` rewrites data/ai-robots-txt.json; a rebuild picks it up. Our own table
// (bots-ai.ts, bots-web.ts) stays authoritative: an agent it already names keeps our definition, and the
// list adds every other agent as an AI bot with the list's operator and a purpose read from its "function".

import { type AiEngine, type BotDefinition, type BotPurpose, defineBots } from "./bot-types";
import aiRobotsTxt from "./data/ai-robots-txt.json";

export interface AiAgentListEntry {
  operator?: string;
  function?: string;
  description?: string;
}

/** The engine an agent serves, where the list's name says so (the list itself has no such field). */
const ENGINES: Record<string, AiEngine> = {
  "chatgpt agent": "ChatGPT",
  operator: "ChatGPT",
  openai: "ChatGPT",
  "googleagent-mariner": "Gemini",
  "googleagent-urlcontext": "Gemini",
  notebooklm: "NotebookLM",
  deepseekbot: "DeepSeek",
  "kimi-user": "Kimi",
  tongyibot: "Qwen",
  yiyanbot: "ERNIE",
  "kagi-fetcher": "Kagi",
  phindbot: "Phind",
  "meta-webindexer": "Meta AI",
  // The list's other assistants (fetching for a user's question): each under its own name.
  "ai2bot-deepresearcheval": "Ai2",
  "amazon-qbusiness": "Amazon Q Business",
  "bigsur.ai": "Big Sur AI",
  "geisthaus-pagefetcher": "GeistHaus",
  klaviyoaibot: "Klaviyo",
  linerbot: "Liner",
  "shap-user": "Parallel",
  "poggio-citations": "Poggio",
  qualifiedbot: "Qualified",
  useai: "UseAI",
};

/** Operators the list leaves "unclear" but whose agents document who runs them. */
const OPERATORS: Record<string, string> = {
  "google-agent": "Google",
  "google-gemini-cli": "Google",
  "google-notebooklm": "Google",
  notebooklm: "Google",
  "gemini-deep-research": "Google",
  duckassistbot: "DuckDuckGo",
  "amzn-searchbot": "Amazon",
  "amazon-qbusiness": "Amazon",
  novaact: "Amazon",
  "claude-code": "Anthropic",
  operator: "OpenAI",
  cursor: "Anysphere",
  "meta-externalagent": "Meta",
  "meta-externalfetcher": "Meta",
  "azureai-searchbot": "Microsoft",
  apifybot: "Apify",
  apifywebsitecontentcrawler: "Apify",
  bravebot: "Brave",
  brightbot: "Bright Data",
  tavilybot: "Tavily",
  exabot: "Exa",
  iaskspider: "iAsk",
  iaskbot: "iAsk",
  "shap-user": "Parallel",
  "webzio-extended": "Webz.io",
  "chatglm-spider": "Zhipu AI",
  cloudvertexbot: "Google",
  channel3bot: "Channel3",
  linkupbot: "Linkup",
  linerbot: "Liner",
  opencode: "SST",
  trae: "ByteDance",
  code: "Microsoft",
  pangubot: "Huawei",
  lightpanda: "Lightpanda",
  "laion-huggingface-processor": "LAION",
  addsearchbot: "AddSearch",
  "terra cotta": "Ceramic AI",
  wrtnbot: "Wrtn Technologies",
  phindbot: "Phind",
};

// Single common words the list names: matched only as a product token ("Code/1.2"), in their own case, so
// "code" or "spider" in a URL or another bot's name is not taken for them.
const STRICT_NAMES = new Set([
  "Code",
  "Cursor",
  "Devin",
  "LCC",
  "Operator",
  "OpenAI",
  "Spider",
  "Trae",
  "YaK",
]);

// Names another, older bot spells in another case: Exalead's "Exabot" is not Exa's "ExaBot".
const CASE_SENSITIVE = new Set(["ExaBot"]);

/** Reads the list's free-text "function" into our purposes. */
export function purposeFromFunction(name: string, fn: string | undefined): BotPurpose {
  const text = (fn ?? "").toLowerCase();
  if (text === "ai agents") return "agentic_browser";
  if (/-user$|fetcher|urlcontext/i.test(name)) return "ai_user_fetch";
  if (text === "ai coding agents") return "ai_user_fetch";
  if (text.includes("assistant") || text.includes("user-initiated") || text.includes("user prompts")) {
    return "ai_assistant";
  }
  if (text.includes("search") || text.includes("answers")) return "ai_search";
  return "training";
}

/** "[OpenAI](https://openai.com)" -> "OpenAI"; "Kagi that fetches..." -> "Kagi"; "Unclear at this time." -> null. */
export function operatorFromText(text: string | undefined): string | null {
  let value = (text ?? "").trim();
  const link = /^\[([^\]]+)\]\([^)]*\)/.exec(value);
  if (link?.[1]) value = link[1];
  if (/^(unclear|unknown|no information)/i.test(value) || /^https?:\/\//i.test(value)) return null;
  value = value.replace(/^the /i, "");
  const cut = value.search(/\s(?:that|to|which|who|for|used)\s|,|\(|\.(?:\s|$)/);
  if (cut > 0) value = value.slice(0, cut);
  value = value.replace(/\s+(?:a|an)\s.*$/i, "").trim();
  return value.length >= 2 && value.length <= 60 ? value : null;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&").replace(/ /g, "[ _-]?");
}

/** The agent's name without a version suffix ("iaskspider/2.0" -> "iaskspider", "Brightbot 1.0" -> "Brightbot"). */
export function agentBaseName(name: string): string {
  return name.replace(/(?:\/|\s+)v?\d[\d.]*$/, "").trim();
}

/** A pattern for an agent's name: a whole token, any case, except the STRICT_NAMES. */
export function agentPattern(name: string): RegExp {
  // VS Code's desktop app (an Electron browser) also calls itself "Code/1.x": only the bare agent counts.
  if (name === "Code") return /(?:^|[\s(;,])Code\/\d(?!.*\bElectron\/)/;
  if (STRICT_NAMES.has(name)) return new RegExp(`(?:^|[\\s(;,])${escapeRegExp(name)}/\\d`);
  const flags = CASE_SENSITIVE.has(name) ? "" : "i";
  return new RegExp(`(?:^|[^A-Za-z0-9])${escapeRegExp(name)}(?![A-Za-z0-9])`, flags);
}

/**
 * Bot definitions for the list's agents that `known` (our table) does not name. Names differing only in case
 * or version ("Meta-ExternalAgent", "MistralAI-User/1.0") collapse into one.
 */
export function definitionsFromAgentList(
  list: Record<string, AiAgentListEntry>,
  known: readonly BotDefinition[],
): readonly BotDefinition[] {
  const taken = new Set<string>();
  for (const d of known) {
    taken.add(d.name.toLowerCase());
    if (d.robotsToken) taken.add(d.robotsToken.toLowerCase());
  }
  const defs: Parameters<typeof defineBots>[0] = [];
  for (const [rawName, entry] of Object.entries(list)) {
    const name = agentBaseName(rawName);
    const key = name.toLowerCase();
    if (name.length < 2 || taken.has(key)) continue;
    taken.add(key);
    defs.push({
      name,
      userAgent: agentPattern(name),
      robotsToken: rawName,
      operator: OPERATORS[key] ?? operatorFromText(entry.operator),
      purpose: purposeFromFunction(name, entry.function),
      engine: ENGINES[key] ?? null,
      isAIBot: true,
      note: "from the ai.robots.txt list",
    });
  }
  // Longer names first, so "AI2Bot-DeepResearchEval" wins over "AI2Bot" and "Querit-SearchBot" over "Querit".
  defs.sort((a, b) => b.name.length - a.name.length);
  return defineBots(defs);
}

/** The vendored snapshot of the list. */
export const AI_AGENT_LIST: Record<string, AiAgentListEntry> = aiRobotsTxt as Record<
  string,
  AiAgentListEntry
>;
