import { rename, writeFile } from "node:fs/promises";
import path from "node:path";
import { readStreamCapped } from "@/lib/streams/read-capped";
import type { AiAgentListEntry } from "./ai-agents-list";

/** The list's raw file in its public repository (MIT licence; see data/README.md). */
export const AI_AGENT_LIST_URL =
  "https://raw.githubusercontent.com/ai-robots-txt/ai.robots.txt/main/robots.json";
const AI_AGENT_LIST_FILE = "ai-robots-txt.json";

const MAX_BYTES = 2 * 1024 * 1024;
// Today's list has ~170 agents; far fewer means a truncated or replaced file, which would drop agents.
const MIN_AGENTS = 50;

/** Checks the shape of a downloaded list: an object of agent name -> { operator, function, ... } strings. */
export function parseAgentList(json: unknown): Record<string, AiAgentListEntry> {
  if (typeof json !== "object" || json === null || Array.isArray(json)) throw new Error("not a JSON object");
  const out: Record<string, AiAgentListEntry> = {};
  for (const [name, entry] of Object.entries(json)) {
    if (!name.trim() || name.length > 100)
      throw new Error(`agent name ${JSON.stringify(name)} is not usable`);
    if (typeof entry !== "object" || entry === null) throw new Error(`agent ${name}: entry is not an object`);
    const e = entry as Record<string, unknown>;
    for (const field of ["operator", "function", "description"] as const) {
      if (e[field] !== undefined && typeof e[field] !== "string")
        throw new Error(`agent ${name}: ${field} is not text`);
    }
    out[name] = e as AiAgentListEntry;
  }
  if (Object.keys(out).length < MIN_AGENTS) {
    throw new Error(`only ${Object.keys(out).length} agents (expected at least ${MIN_AGENTS})`);
  }
  return out;
}

/** Downloads the list and rewrites the vendored file (atomically); the previous file stays on any failure. */
export async function refreshAgentList(options: {
  dataDir: string;
  url?: string;
  fetch?: typeof fetch;
  timeoutMs?: number;
}): Promise<{ agents: number; file: string }> {
  const response = await (options.fetch ?? fetch)(options.url ?? AI_AGENT_LIST_URL, {
    signal: AbortSignal.timeout(options.timeoutMs ?? 20_000),
    redirect: "follow",
  });
  if (!response.ok) throw new Error(`HTTP ${response.status}`);
  const declared = Number(response.headers.get("content-length") ?? "0");
  if (declared > MAX_BYTES) throw new Error(`response is ${declared} bytes, over the ${MAX_BYTES}-byte cap`);
  const text = response.body
    ? (
        await readStreamCapped(
          response.body,
          MAX_BYTES,
          () => new Error(`response exceeds the ${MAX_BYTES}-byte cap`),
        )
      ).toString("utf8")
    : "";
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new Error("response is not JSON");
  }
  const list = parseAgentList(json);
  const file = path.join(options.dataDir, AI_AGENT_LIST_FILE);
  await writeFile(`${file}.tmp`, `${JSON.stringify(list, null, 4)}\n`);
  await rename(`${file}.tmp`, file);
  return { agents: Object.keys(list).length, file };
}
