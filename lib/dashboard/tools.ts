import type { Db } from "@/lib/db/client";
import { AppError as ApiError } from "@/lib/errors";
import { createJob } from "@/lib/jobs/create";
import { getTool, TOOL_NAMES, type ToolName } from "@/lib/tools/catalog";
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
