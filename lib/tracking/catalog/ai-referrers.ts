// AI referrers: the hosts, Android apps and utm_source values that mark a visitor arriving from an AI
// engine's answer. Part of the bot catalogue, beside the user agents and IP ranges.
import type { AiEngine } from "./bots";

interface HostRule {
  host: string;
  engine: AiEngine;
  /** Only referrals whose path starts with this count (the host also serves non-AI pages). */
  pathPrefix?: string;
}

// A host matches itself and its subdomains ("perplexity.ai" covers www. and labs.).
const REFERRER_HOSTS: HostRule[] = [
  { host: "chatgpt.com", engine: "ChatGPT" },
  { host: "chat.openai.com", engine: "ChatGPT" },
  { host: "perplexity.ai", engine: "Perplexity" },
  { host: "perplexity.com", engine: "Perplexity" },
  { host: "gemini.google.com", engine: "Gemini" },
  { host: "bard.google.com", engine: "Gemini" },
  { host: "notebooklm.google.com", engine: "NotebookLM" },
  { host: "copilot.microsoft.com", engine: "Copilot" },
  { host: "copilot.cloud.microsoft", engine: "Copilot" },
  { host: "bing.com", engine: "Copilot", pathPrefix: "/chat" },
  { host: "claude.ai", engine: "Claude" },
  { host: "you.com", engine: "You.com" },
  { host: "chat.mistral.ai", engine: "Mistral" },
  { host: "meta.ai", engine: "Meta AI" },
  { host: "grok.com", engine: "Grok" },
  { host: "chat.deepseek.com", engine: "DeepSeek" },
];

// Android apps send "android-app://<package>/" as the referrer.
const ANDROID_APPS: Record<string, AiEngine> = {
  "com.openai.chatgpt": "ChatGPT",
  "ai.perplexity.app.android": "Perplexity",
  "com.anthropic.claude": "Claude",
  "com.google.android.apps.bard": "Gemini",
  "com.microsoft.copilot": "Copilot",
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
