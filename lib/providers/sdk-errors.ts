import { EngineError, errorFromStatus } from "./engine-retry";
import type { EngineName } from "./engine-types";
import { parseRetryAfter } from "./retry";

interface HeaderBag {
  get(name: string): string | null;
}

/**
 * Maps an error thrown by an official SDK (OpenAI, Anthropic and Google all expose `status` and the OpenAI and
 * Anthropic ones `headers`) to an EngineError. `signal` tells a cancelled job from a network failure.
 */
export function toEngineError(
  engine: EngineName,
  err: unknown,
  signal: AbortSignal | undefined,
  lastHeaders?: HeaderBag,
): EngineError {
  if (err instanceof EngineError) return err;
  const e = err as { status?: unknown; headers?: unknown; name?: string; message?: string };
  const detail = typeof e?.message === "string" ? e.message.slice(0, 500) : String(err);
  if (signal?.aborted || e?.name === "AbortError" || e?.name === "APIUserAbortError") {
    return errorFromStatus(engine, undefined, { aborted: true, detail });
  }
  const status = typeof e?.status === "number" ? e.status : undefined;
  const headers = isHeaderBag(e?.headers) ? e.headers : lastHeaders;
  return errorFromStatus(engine, status, { retryAfterMs: parseRetryAfter(headers), detail });
}

function isHeaderBag(value: unknown): value is HeaderBag {
  return typeof (value as HeaderBag | undefined)?.get === "function";
}

/** Adds a source once, keeping the first title seen; the order of first appearance is kept. */
export function addSource(
  list: { url: string; title: string }[],
  seen: Set<string>,
  url: unknown,
  title: unknown,
) {
  if (typeof url !== "string" || url === "" || seen.has(url)) return;
  seen.add(url);
  list.push({ url, title: typeof title === "string" ? title : "" });
}

/** Adds a search query once, trimmed; blanks and non-strings are skipped. */
export function addQuery(list: string[], query: unknown) {
  if (typeof query !== "string") return;
  const q = query.trim();
  if (q !== "" && !list.includes(q)) list.push(q);
}

export function notConfigured(engine: EngineName, envVar: string): EngineError {
  return new EngineError(
    engine,
    "ENGINE_NOT_CONFIGURED",
    `${engine} is not configured on this service; the operator must set ${envVar}.`,
  );
}
