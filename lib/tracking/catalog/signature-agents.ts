// Which signing agents (Web Bot Auth) speak for which bots. A valid signature proves only that the holder of a
// key the agent's directory publishes signed the request; it proves a bot's identity only when that directory is
// one the bot's operator signs with. A signature from any other directory says nothing about the claimed bot.

import { DIRECTORY_PATH } from "../web-bot-auth/signature";
import { getBotDefinition } from "./bots";

/** The agents' origins (their directory at the well-known path) per bot, as the operators document them. */
const DOCUMENTED: Record<string, readonly string[]> = {
  // OpenAI signs the requests of ChatGPT's agent and of its user-triggered fetches as chatgpt.com.
  "ChatGPT-User": ["https://chatgpt.com"],
  "ChatGPT Agent": ["https://chatgpt.com"],
  Operator: ["https://chatgpt.com"],
};

/** An origin or a directory URL as the directory URL it names. */
function directoryUrl(text: string): string | null {
  try {
    const url = new URL(text.trim());
    if (url.pathname === "/" || url.pathname === "") url.pathname = DIRECTORY_PATH;
    url.hash = "";
    return url.toString();
  } catch {
    return null;
  }
}

let configured: { raw: string | undefined; byBot: Map<string, Set<string>> } | null = null;

/**
 * TRACKING_SIGNATURE_AGENTS (operators): more agents per bot, "Bot name=https://origin" pairs separated by
 * semicolons ("ChatGPT-User=https://chatgpt.com; MyCrawler=https://crawler.example").
 */
function agentsByBot(): Map<string, Set<string>> {
  const raw = process.env.TRACKING_SIGNATURE_AGENTS;
  if (configured?.raw === raw && configured !== null) return configured.byBot;
  const byBot = new Map<string, Set<string>>();
  const add = (bot: string, origin: string) => {
    const url = directoryUrl(origin);
    if (!url) return;
    const set = byBot.get(bot) ?? new Set<string>();
    set.add(url);
    byBot.set(bot, set);
  };
  for (const [bot, origins] of Object.entries(DOCUMENTED)) for (const o of origins) add(bot, o);
  for (const pair of (raw ?? "").split(";")) {
    const eq = pair.indexOf("=");
    if (eq <= 0) continue;
    add(pair.slice(0, eq).trim(), pair.slice(eq + 1).trim());
  }
  configured = { raw, byBot };
  return byBot;
}

/** Whether a signature resolved through `directory` (a directory or JWKS URL) speaks for `botName`. */
export function botSignsAs(botName: string, directory: string): boolean {
  return agentsByBot().get(botName)?.has(directory) ?? false;
}

/**
 * The bot a signed request with a browser's user agent is, by the directory its signature resolves through: an
 * agent that browses for its user sends a browser's user agent (ChatGPT's agent sends Chrome's), and only its
 * signature names it. Of the bots that sign as that directory, the first that browses (`agentic_browser`), else
 * the only one; null when none, or several that do not browse, sign as it.
 */
export function browsingAgentFor(directory: string): string | null {
  const bots = [...agentsByBot()].filter(([, directories]) => directories.has(directory)).map(([bot]) => bot);
  const browsing = bots.find((bot) => getBotDefinition(bot)?.purpose === "agentic_browser");
  return browsing ?? (bots.length === 1 ? (bots[0] as string) : null);
}
