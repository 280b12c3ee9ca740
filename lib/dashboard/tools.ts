import type { Db } from "@/lib/db/client";
import { AppError as ApiError } from "@/lib/errors";
import { createJob } from "@/lib/jobs/create";
import { getTool, TOOL_NAMES, type ToolName } from "@/lib/tools/catalog";
import { loadServerAvailability } from "@/lib/tools/load-availability";
import { checkAvailability, type Env } from "@/lib/tools/types";
import type { Actor } from "./members";

export interface FieldIssue {
  field: string;
  message: string;
}

export type LaunchResult =
  | { ok: true; jobId: string; creditsCharged: number; balance: number }
  | { ok: false; message: string; issues: FieldIssue[]; required?: number; available?: number };

export const isToolName = (name: string): name is ToolName =>
  (TOOL_NAMES as readonly string[]).includes(name);

/**
 * Launches a tool for the actor's account exactly as POST /api/v1/<tool> does: the tool's own zod input
 * schema, then createJob (availability check, charge and pending job in one transaction).
 * Any member may launch tools.
 */
export async function launchTool(
  db: Db,
  actor: Actor,
  toolName: string,
  raw: unknown,
): Promise<LaunchResult> {
  const tool = isToolName(toolName) ? getTool(toolName) : undefined;
  if (!tool) return { ok: false, message: `Unknown tool ${toolName}.`, issues: [] };
  const parsed = tool.input.safeParse(raw);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => ({
      field: i.path.join(".") || "body",
      message: i.message,
    }));
    return { ok: false, message: "Check the highlighted fields.", issues };
  }
  try {
    const { job, balance } = await createJob(db, { accountId: actor.accountId, tool, input: parsed.data });
    // No idempotency key here, so this is never a replay and the charge's balance is always known.
    return { ok: true, jobId: job.id, creditsCharged: job.creditsCharged, balance: balance! };
  } catch (err) {
    if (err instanceof ApiError && err.code === "INSUFFICIENT_CREDITS") {
      return {
        ok: false,
        message: err.message,
        issues: [],
        required: Number(err.details.required),
        available: Number(err.details.available),
      };
    }
    if (err instanceof ApiError && err.code === "VALIDATION_ERROR") {
      return { ok: false, message: err.message, issues: [] };
    }
    throw err;
  }
}

/** Why a tool cannot run on this server at all, and the settings that would enable it. */
export interface ToolBlock {
  reason: string;
  /** Environment variables to set, or the facts to provide ("Chromium installed at CHROME_PATH …"). */
  settings: string[];
}

/**
 * Whether a tool can run here for any input, judged with the catalogue's own availability checks (the
 * definition's and the tool's server-side availability.ts) on its documented example: the dashboard then
 * disables the launch instead of letting a job be charged and refunded. A tool with some of its
 * requirements met (one AI engine of four) is not blocked: the launcher checks each input, and createJob
 * refuses an input that needs a missing one before any charge.
 */
export async function findToolBlock(db: Db, toolName: string, env: Env): Promise<ToolBlock | null> {
  const tool = getTool(toolName);
  if (!tool) return null;
  if (tool.unavailable) return { reason: tool.unavailable.reason, settings: [] };
  const input = tool.input.safeParse(tool.example);
  if (!input.success) return null;
  let availability = checkAvailability(tool, input.data, env);
  if (availability.ok) {
    const serverCheck = await loadServerAvailability(tool.name);
    if (serverCheck) availability = await serverCheck(db, input.data, env);
  }
  if (availability.ok) return null;
  const requirements = (tool.requires ?? []).map((r) => ({ ...r, configured: Boolean(env[r.env]?.trim()) }));
  if (requirements.some((r) => r.configured)) return null;
  const settings = [...new Set(requirements.map((r) => (r.detected ? r.label : r.env)))];
  return { reason: availability.reason, settings };
}
