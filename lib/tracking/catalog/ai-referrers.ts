// AI referrers: the hosts, Android apps and utm_source values that mark a visitor arriving from an AI
// engine's answer. Part of the bot catalogue, beside the user agents and IP ranges.
import type { AiEngine } from "./bots";
import aiAssistants from "./data/ai-assistants.json";

export interface HostRule {
  host: string;
  engine: AiEngine;
  /** Only referrals whose path starts with this count (the host also serves non-AI pages). */
  pathPrefix?: string;
}

// The public list of AI-assistant referrers (Matomo's searchengine-and-social-list, CC0; see data/README.md),
// its names mapped to ours.
const LIST_NAMES: Record<string, AiEngine> = {
  "Baidu AI": "ERNIE",
  "Chat+": "Chat+",
  ChatGPT: "ChatGPT",
  Claude: "Claude",
  Copilot: "Copilot",
  ChatGLM: "ChatGLM",
  Deepseek: "DeepSeek",
  "Duck.ai": "Duck.ai",
  Gemini: "Gemini",
  Grok: "Grok",
  iAsk: "iAsk",
  Jasper: "Jasper",
  "Le Chat": "Mistral",
  "Meta AI": "Meta AI",
  NotebookLM: "NotebookLM",
  Perplexity: "Perplexity",
  Qwen: "Qwen",
  Writesonic: "Writesonic",
  You: "You.com",
};

// Our own additions: hosts the list does not hold yet.
const OWN_HOSTS: HostRule[] = [
  { host: "perplexity.com", engine: "Perplexity" },
  { host: "copilot.cloud.microsoft", engine: "Copilot" },
  { host: "bing.com", engine: "Copilot", pathPrefix: "/chat" },
  { host: "m365.cloud.microsoft", engine: "Copilot", pathPrefix: "/chat" },
  { host: "chat.deepseek.com", engine: "DeepSeek" },
  { host: "deepseek.com", engine: "DeepSeek", pathPrefix: "/chat" },
  { host: "grok.x.ai", engine: "Grok" },
  { host: "twitter.com", engine: "Grok", pathPrefix: "/i/grok" },
  { host: "duckduckgo.com", engine: "Duck.ai", pathPrefix: "/chat" },
  { host: "phind.com", engine: "Phind" },
  { host: "kagi.com", engine: "Kagi", pathPrefix: "/assistant" },
  { host: "kimi.com", engine: "Kimi" },
  { host: "kimi.moonshot.cn", engine: "Kimi" },
  { host: "tongyi.aliyun.com", engine: "Qwen" },
  { host: "qianwen.com", engine: "Qwen" },
  { host: "chat.qwenlm.ai", engine: "Qwen" },
  { host: "doubao.com", engine: "Doubao" },
  { host: "ernie.baidu.com", engine: "ERNIE" },
];

/** The list's entries as host rules ("x.com/i/grok" becomes host x.com, path /i/grok). */
function hostRulesFromList(assistants: Record<string, readonly string[]>): HostRule[] {
  const rules: HostRule[] = [];
  for (const [name, hosts] of Object.entries(assistants)) {
    const engine = LIST_NAMES[name];
    if (!engine) continue; // a new name in a refreshed list: map it above before it counts
    for (const entry of hosts) {
      const slash = entry.indexOf("/");
      const host = (slash === -1 ? entry : entry.slice(0, slash)).toLowerCase();
      rules.push(slash === -1 ? { host, engine } : { host, engine, pathPrefix: entry.slice(slash) });
    }
  }
  return rules;
}

// A host matches itself and its subdomains ("perplexity.ai" covers www. and labs.); path rules first, so
// "x.com/i/grok" is tried before a plain host rule could claim x.com.
const REFERRER_HOSTS: HostRule[] = [...hostRulesFromList(aiAssistants.assistants), ...OWN_HOSTS].sort(
  (a, b) => Number(Boolean(b.pathPrefix)) - Number(Boolean(a.pathPrefix)),
);

/** Every referrer host (and path prefix) recognised, for documentation and tests. */
export const AI_REFERRER_HOSTS: readonly Readonly<HostRule>[] = REFERRER_HOSTS;

// Android apps send "android-app://<package>/" as the referrer.
const ANDROID_APPS: Record<string, AiEngine> = {
  "com.openai.chatgpt": "ChatGPT",
  "ai.perplexity.app.android": "Perplexity",
  "com.anthropic.claude": "Claude",
  "com.google.android.apps.bard": "Gemini",
  "com.microsoft.copilot": "Copilot",
  "com.deepseek.chat": "DeepSeek",
  "ai.x.grok": "Grok",
  "ai.mistral.chat": "Mistral",
  "com.moonshot.kimichat": "Kimi",
  "com.larus.nova": "Doubao",
};

// utm_source values the engines (or the people sharing their answers) put on links.
const UTM_SOURCES: Record<string, AiEngine> = {
  chatgpt: "ChatGPT",
  openai: "ChatGPT",
  perplexity: "Perplexity",
  claude: "Claude",
  gemini: "Gemini",
  bard: "Gemini",
  copilot: "Copilot",
  mistral: "Mistral",
  lechat: "Mistral",
  grok: "Grok",
  deepseek: "DeepSeek",
  "meta ai": "Meta AI",
  "meta.ai": "Meta AI",
  "duck.ai": "Duck.ai",
  phind: "Phind",
  kagi: "Kagi",
  kimi: "Kimi",
  qwen: "Qwen",
  doubao: "Doubao",
  yiyan: "ERNIE",
  ernie: "ERNIE",
};

function engineForHost(host: string, pathname: string): AiEngine | null {
  const h = host.toLowerCase().replace(/\.$/, "");
  for (const rule of REFERRER_HOSTS) {
    if (h !== rule.host && !h.endsWith(`.${rule.host}`)) continue;
    if (rule.pathPrefix && !pathname.toLowerCase().startsWith(rule.pathPrefix)) continue;
    return rule.engine;
  }
  return null;
}

/** The AI engine a referrer points at: a URL, a bare host, or an Android app referrer. */
export function engineFromReferrer(referrer: string | null | undefined): AiEngine | null {
  const value = referrer?.trim();
  if (!value || value === "-") return null;
  const app = /^android-app:\/\/([^/?#]+)/i.exec(value);
  if (app?.[1]) return ANDROID_APPS[app[1].toLowerCase()] ?? null;
  let url: URL;
  try {
    url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? value : `https://${value}`);
  } catch {
    return null;
  }
  return engineForHost(url.hostname, url.pathname);
}

/** The AI engine named by a path's utm_source parameter, if any. */
export function engineFromUtm(path: string): AiEngine | null {
  const query = path.indexOf("?");
  if (query === -1) return null;
  const hash = path.indexOf("#", query);
  const params = new URLSearchParams(path.slice(query + 1, hash === -1 ? undefined : hash));
  const source = params.get("utm_source")?.trim().toLowerCase();
  if (!source) return null;
  const asHost = source.replace(/^https?:\/\//, "").split("/")[0] ?? "";
  return engineForHost(asHost, "/") ?? UTM_SOURCES[source] ?? UTM_SOURCES[asHost.split(".")[0] ?? ""] ?? null;
}

/**
 * The AI engine an analytics tool's traffic source names: a host ("chatgpt.com", GA4's sessionSource), an
 * engine's name ("ChatGPT", Plausible's visit:source) or a utm_source value.
 */
export function engineFromSource(source: string | null | undefined): AiEngine | null {
  const value = source?.trim().toLowerCase();
  if (!value || value === "(direct)" || value === "direct / none") return null;
  return engineFromReferrer(value) ?? UTM_SOURCES[value] ?? UTM_SOURCES[value.split(".")[0] ?? ""] ?? null;
}
