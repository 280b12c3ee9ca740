import type { TestApi } from "../api-server";

interface Envelope<T = Record<string, unknown>> {
  success: boolean;
  data?: T;
  error?: { code: string; message: string; details: Record<string, unknown> };
  requestId: string;
}

/** One API call: status, headers and the parsed envelope. */
export async function callApi<T = Record<string, unknown>>(
  api: TestApi,
  path: string,
  init: { method?: string; headers?: Record<string, string>; json?: unknown; body?: BodyInit } = {},
) {
  const headers = { ...init.headers };
  let body = init.body;
  if (init.json !== undefined) {
    headers["content-type"] = "application/json";
    body = JSON.stringify(init.json);
  }
  const res = await fetch(`${api.url}${path}`, { method: init.method ?? "GET", headers, body });
  const envelope = (await res.json()) as Envelope<T>;
  return { res, status: res.status, body: envelope, data: envelope.data as T };
}

export const UA = {
  gptbot:
    "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.1; +https://openai.com/gptbot)",
  chatgptUser:
    "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; ChatGPT-User/1.0; +https://openai.com/bot",
  googlebot: "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
  perplexityUser:
    "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Perplexity-User/1.0; +https://perplexity.ai/perplexity-user)",
  chrome:
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
};

export const minutesAgo = (m: number) => new Date(Date.now() - m * 60_000).toISOString();
