import type { DbOrTx } from "@/lib/db/client";
import { UNAVAILABLE_REASON_TEXT, type UnavailableReason } from "@/lib/errors/unavailable";
import { ENGINE_REQUIREMENTS } from "@/lib/providers/engines";
import type { ToolName } from "./catalog";
import { loadServerAvailability } from "./load-availability";
import { type AnyTool, checkAvailability, type Env } from "./types";

/**
 * Whether one input of a tool can run on this server. `message` is the refusal as the API has always worded it
 * (for developers and operators: it may name a setting); `customerMessage` is what the dashboard shows.
 */
export type Verdict =
  | { ok: true }
  | {
      ok: false;
      reason: UnavailableReason;
      message: string;
      customerMessage: string;
      details?: Record<string, unknown>;
    };

const ENGINE_ENVS = new Set(ENGINE_REQUIREMENTS.map((r) => r.env));

/** The closed reason of a refusal that did not name one, from the tool's requirements not met here. */
function classify(tool: AnyTool, env: Env): UnavailableReason {
  const unmet = (tool.requires ?? []).filter((r) => !env[r.env]?.trim());
  if (unmet.some((r) => r.detected)) return "browser_missing";
  if (unmet.length > 0 && unmet.every((r) => ENGINE_ENVS.has(r.env))) return "engine_not_configured";
  return "provider_not_configured";
}

/**
 * The one rule that decides whether `input` (already parsed by the tool's schema) can run here: the
 * definition's own check, then the tool's server-side availability.ts (what only the server knows, such as an
 * imported web graph). `env` is the server's environment with the facts checked on disk (readServerEnv).
 * REST, MCP and the dashboard's launch all reach it through createJob; the launcher asks it before a launch
 * and GET /capabilities asks it for each tool's inputs.
 */
export async function judgeToolInput(db: DbOrTx, tool: AnyTool, input: unknown, env: Env): Promise<Verdict> {
  if (tool.unavailable) {
    return {
      ok: false,
      reason: "not_built",
      message: tool.unavailable.reason,
      customerMessage: UNAVAILABLE_REASON_TEXT.not_built,
    };
  }
  let availability = checkAvailability(tool, input, env);
  if (availability.ok) {
    const serverCheck = await loadServerAvailability(tool.name);
    if (serverCheck) availability = await serverCheck(db, input, env);
  }
  if (availability.ok) return { ok: true };
  const reason = availability.code ?? classify(tool, env);
  return {
    ok: false,
    reason,
    message: availability.reason,
    customerMessage: UNAVAILABLE_REASON_TEXT[reason],
    ...(availability.details ? { details: availability.details } : {}),
  };
}

/** One way of using a tool: the example with one option chosen, or one of its alternative inputs. */
export interface ToolProbe {
  /** "engine=Claude", "keywords"; empty for the documented example alone. */
  option: string;
  input: Record<string, unknown>;
}

/** Alternative inputs a tool accepts beyond its example, each needing something different of the server. */
const ALTERNATIVES: Partial<Record<ToolName, ToolProbe[]>> = {
  "keyword-research": [
    { option: "url", input: { url: "https://example.com/" } },
    { option: "keywords", input: { keywords: ["example"] } },
  ],
};

/**
 * The inputs that tell whether a tool can run here at all: its example with each choice of each select and
 * checkbox field (each AI engine, each strategy), and its alternative inputs. A tool runs here when one of
 * them does.
 */
export function toolProbes(tool: AnyTool): ToolProbe[] {
  const example = tool.example as Record<string, unknown>;
  const probes: ToolProbe[] = [...(ALTERNATIVES[tool.name as ToolName] ?? [])];
  for (const f of tool.form) {
    if (f.kind === "select") {
      for (const o of f.options)
        probes.push({ option: `${f.name}=${o}`, input: { ...example, [f.name]: o } });
    } else if (f.kind === "checkboxes") {
      for (const o of f.options)
        probes.push({ option: `${f.name}=${o}`, input: { ...example, [f.name]: [o] } });
    }
  }
  return probes.length > 0 ? probes : [{ option: "", input: example }];
}

export interface ToolVerdict {
  /** Some input of the tool can run here. */
  available: boolean;
  /** When none can: the reason of the first refusal. */
  refusal?: Exclude<Verdict, { ok: true }>;
  /** Per option, when the tool has several and at least one is refused. */
  options?: { option: string; available: boolean; reason?: UnavailableReason }[];
}

/** Whether any input of `tool` can run here, and which of its options cannot. */
export async function judgeTool(db: DbOrTx, tool: AnyTool, env: Env): Promise<ToolVerdict> {
  const verdicts: { option: string; verdict: Verdict }[] = [];
  for (const probe of toolProbes(tool)) {
    const parsed = tool.input.safeParse(probe.input);
    if (!parsed.success) continue;
    verdicts.push({ option: probe.option, verdict: await judgeToolInput(db, tool, parsed.data, env) });
  }
  const refused = verdicts.find((v) => !v.verdict.ok)?.verdict as Exclude<Verdict, { ok: true }> | undefined;
  const available = verdicts.some((v) => v.verdict.ok);
  const named = verdicts.filter((v) => v.option !== "");
  return {
    available,
    ...(available ? {} : refused ? { refusal: refused } : {}),
    ...(refused && named.length > 1
      ? {
          options: named.map(({ option, verdict }) =>
            verdict.ok ? { option, available: true } : { option, available: false, reason: verdict.reason },
          ),
        }
      : {}),
  };
}
