import type { Db } from "@/lib/db/client";
import { AppError as ApiError } from "@/lib/errors";
import {
  isUnavailableReason,
  UNAVAILABLE_REASON_TEXT,
  type UnavailableReason,
} from "@/lib/errors/unavailable";
import { createJob } from "@/lib/jobs/create";
import { getTool, TOOL_NAMES, type ToolName } from "@/lib/tools/catalog";
import { readServerEnv } from "@/lib/tools/server-env";
import { judgeToolInput } from "@/lib/tools/verdict";
import type { Actor } from "./members";

interface FieldIssue {
  field: string;
  message: string;
}

export type LaunchResult =
  | { ok: true; jobId: string; creditsCharged: number; balance: number }
  | {
      ok: false;
      message: string;
      issues: FieldIssue[];
      required?: number;
      available?: number;
      /** Set when the input cannot run on this server (the 400's `details.reason`). */
      reason?: UnavailableReason;
    };

const isToolName = (name: string): name is ToolName => (TOOL_NAMES as readonly string[]).includes(name);

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
      // A refusal of what this server cannot run: its reason, in words without the operator's settings.
      const reason = err.details.reason;
      if (isUnavailableReason(reason)) {
        return { ok: false, message: UNAVAILABLE_REASON_TEXT[reason], issues: [], reason };
      }
      return { ok: false, message: err.message, issues: [] };
    }
    throw err;
  }
}

/** The verdict on one input, for the launcher before a launch: what createJob would decide, in customer words. */
export type LaunchCheck = { ok: true } | { ok: false; reason: UnavailableReason; message: string };

/**
 * Whether `raw` (the launcher's body) can run here, by the rule createJob applies (lib/tools/verdict.ts). An
 * input the schema refuses is "ok" here: the launch itself answers with the field errors.
 */
export async function checkLaunch(db: Db, toolName: string, raw: unknown): Promise<LaunchCheck> {
  const tool = isToolName(toolName) ? getTool(toolName) : undefined;
  if (!tool) return { ok: true };
  const parsed = tool.input.safeParse(raw);
  if (!parsed.success) return { ok: true };
  const verdict = await judgeToolInput(db, tool, parsed.data, readServerEnv());
  return verdict.ok ? { ok: true } : { ok: false, reason: verdict.reason, message: verdict.customerMessage };
}
