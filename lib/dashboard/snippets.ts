// The tracking snippets of docs/tracking.md, with this server's address and the customer's domain filled in.

import {
  snippetProgramPatterns,
  snippetReferrerPattern,
  snippetUserAgentPattern,
} from "@/lib/tracking/catalog/snippet-filters";

export function trackingSnippets(origin: string, domain: string): { title: string; code: string }[] {
  const endpoint = `${origin}/api/v1/tracking/events`;
  const { program, browser } = snippetProgramPatterns();
  return [
    {
      title: "Test with curl",
      code: `curl -s -X POST ${endpoint} -H "x-api-key: $KEY" -H "x-api-secret: $SECRET" \\
  -H "content-type: application/json" -d '{"events":[
    {"domain":"${domain}","path":"/","userAgent":"Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.1; +https://openai.com/gptbot)",
     "ip":"20.171.207.10","status":200,"timestamp":"'$(date -u +%Y-%m-%dT%H:%M:%SZ)'"}]}'`,
    },
    {
      title: "Next.js (proxy.ts)",
      code: `import { type NextFetchEvent, type NextRequest, NextResponse } from "next/server";

const ENDPOINT = "${endpoint}";
let buffer: object[] = [];
let firstAt = 0;
let pausedUntil = 0;

function send(events: object[]) {
  return fetch(ENDPOINT, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "x-api-key": process.env.FINDABLE_KEY!,
      "x-api-secret": process.env.FINDABLE_SECRET!,
    },
    body: JSON.stringify({ events }),
  }).then(
    (res) => {
      if (res.status === 429 || res.status >= 500) keep(events, Number(res.headers.get("retry-after")) || 10);
    },
    () => keep(events, 10),
  );
}

// Refused for now (the rate limit, a server error, no connection): the events wait and go again (ingest is
// idempotent), none sent before the pause ends.
function keep(events: object[], seconds: number) {
  buffer = events.concat(buffer).slice(0, 5000);
  pausedUntil = Date.now() + seconds * 1000;
}

export function proxy(req: NextRequest, event: NextFetchEvent) {
  buffer.push({
    domain: req.nextUrl.hostname,
    path: req.nextUrl.pathname + req.nextUrl.search,
    userAgent: req.headers.get("user-agent") ?? "",
    // The address your proxy saw (the last X-Forwarded-For entry; earlier ones are whatever the client sent, and
    // a bot's address is what verifies it). Behind a CDN, its client header (cf-connecting-ip, …) instead.
    ip: req.headers.get("x-forwarded-for")?.split(",").at(-1)?.trim() || undefined,
    referrer: req.headers.get("referer") ?? undefined,
    timestamp: new Date().toISOString(),
    // Signed agents (Web Bot Auth): the headers as received, and what they sign.
    method: req.method,
    host: req.headers.get("host") ?? undefined,
    signature: req.headers.get("signature") ?? undefined,
    signatureInput: req.headers.get("signature-input") ?? undefined,
    signatureAgent: req.headers.get("signature-agent") ?? undefined,
  });
  if (buffer.length > 5000) buffer.pop(); // full while the service cannot be reached: the newest is dropped
  if (buffer.length === 1) firstAt = Date.now();
  if ((buffer.length >= 500 || Date.now() - firstAt > 10_000) && Date.now() >= pausedUntil) {
    event.waitUntil(send(buffer.splice(0, 1000)));
  }
  return NextResponse.next();
}

export const config = { matcher: ["/((?!_next/static|_next/image|favicon.ico).*)"] };`,
    },
    {
      title: "Express",
      code: `const ENDPOINT = "${endpoint}";
let buffer = [];
let pausedUntil = 0;

function flush() {
  if (buffer.length === 0 || Date.now() < pausedUntil) return;
  const events = buffer.splice(0, 1000);
  fetch(ENDPOINT, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "x-api-key": process.env.FINDABLE_KEY,
      "x-api-secret": process.env.FINDABLE_SECRET,
    },
    body: JSON.stringify({ events }),
  }).then(
    (res) => {
      if (res.status === 429 || res.status >= 500) keep(events, Number(res.headers.get("retry-after")) || 0);
    },
    () => keep(events, 0),
  );
}

// Refused for now (the rate limit, a server error, no connection): the events wait for a later flush (ingest is
// idempotent), none sent before the pause the service asked for ends.
function keep(events, seconds) {
  buffer = events.concat(buffer).slice(0, 5000);
  pausedUntil = Date.now() + seconds * 1000;
}
setInterval(flush, 10_000).unref();

app.use((req, res, next) => {
  res.on("finish", () => {
    buffer.push({
      id: req.get("x-request-id") || undefined,
      domain: req.hostname,
      path: req.originalUrl,
      userAgent: req.get("user-agent") || "",
      ip: req.ip,
      referrer: req.get("referer") || undefined,
      status: res.statusCode,
      timestamp: new Date().toISOString(),
      // Signed agents (Web Bot Auth): the headers as received, and what they sign.
      method: req.method,
      host: req.get("host"),
      signature: req.get("signature"),
      signatureInput: req.get("signature-input"),
      signatureAgent: req.get("signature-agent"),
    });
    if (buffer.length > 5000) buffer.pop(); // full while the service cannot be reached: the newest is dropped
    if (buffer.length >= 1000) flush();
  });
  next();
});`,
    },
    {
      title: "Cloudflare Worker",
      code: `const ENDPOINT = "${endpoint}";
// Sent: signed agents (Web Bot Auth), bots and AI agents by their user agent, and visits from AI answers.
// Bots and AI agents by name:
const WORTH_SENDING = /${snippetUserAgentPattern()}/i;
// Programs that name no bot (monitors, feed readers, scanners): their words, unless the user agent is a browser's.
const PROGRAM = /${program}/i;
const BROWSER = /${browser}/i;
const AI_REFERRERS = /${snippetReferrerPattern()}/i;
let buffer = [];
let firstAt = 0;
let pausedUntil = 0;

function send(events, env) {
  return fetch(ENDPOINT, {
    method: "POST",
    headers: { "content-type": "application/json", "x-api-key": env.FINDABLE_KEY, "x-api-secret": env.FINDABLE_SECRET },
    body: JSON.stringify({ events }),
  }).then(
    (res) => {
      if (res.status === 429 || res.status >= 500) keep(events, Number(res.headers.get("retry-after")) || 10);
    },
    () => keep(events, 10),
  );
}

// Refused for now (the rate limit, a server error, no connection): the events wait and go again (ingest is
// idempotent), none sent before the pause ends.
function keep(events, seconds) {
  buffer = events.concat(buffer).slice(0, 5000);
  pausedUntil = Date.now() + seconds * 1000;
}

export default {
  async fetch(request, env, ctx) {
    const response = await fetch(request);
    const url = new URL(request.url);
    const userAgent = request.headers.get("user-agent") || "";
    const referrer = request.headers.get("referer") || "";
    const signatureAgent = request.headers.get("signature-agent") || undefined;
    const isProgram =
      userAgent === "" || WORTH_SENDING.test(userAgent) || (PROGRAM.test(userAgent) && !BROWSER.test(userAgent));
    if (signatureAgent || isProgram || AI_REFERRERS.test(referrer) || url.searchParams.has("utm_source")) {
      buffer.push({
        domain: url.hostname,
        path: url.pathname + url.search,
        userAgent,
        ip: request.headers.get("cf-connecting-ip") || undefined,
        referrer: referrer || undefined,
        status: response.status,
        timestamp: new Date().toISOString(),
        // Signed agents (Web Bot Auth): the headers as received, and what they sign.
        method: request.method,
        host: url.host,
        signature: request.headers.get("signature") || undefined,
        signatureInput: request.headers.get("signature-input") || undefined,
        signatureAgent,
      });
      if (buffer.length > 5000) buffer.pop(); // full while the service cannot be reached: the newest is dropped
      if (buffer.length === 1) firstAt = Date.now();
    }
    const due = buffer.length >= 50 || (buffer.length > 0 && Date.now() - firstAt > 10_000);
    if (due && Date.now() >= pausedUntil) ctx.waitUntil(send(buffer.splice(0, 1000), env));
    return response;
  },
};`,
    },
  ];
}
