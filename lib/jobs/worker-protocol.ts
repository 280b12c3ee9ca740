import { type JobFailureCode, ToolError } from "@/lib/errors";
import type { Env } from "@/lib/tools/types";

/** What the runner asks a tool worker thread to do. */
export type ToWorker =
  | {
      type: "run";
      taskId: number;
      /** Absolute path of the module that exports `runner` (a tool's `run.ts`). */
      file: string;
      input: unknown;
      jobId: string;
      accountId: string;
      env: Env;
    }
  | { type: "abort"; taskId: number };

/** What a tool worker thread answers. */
export type FromWorker =
  | { type: "started"; taskId: number }
  | { type: "done"; taskId: number; ok: true; result: unknown }
  | { type: "done"; taskId: number; ok: false; error: WorkerError };

/**
 * An error as plain data: a ToolError keeps its code and message (it is meant for the customer);
 * anything else keeps what the server log needs, and the runner turns it into TOOL_FAILED.
 */
export type WorkerError =
  | { kind: "tool"; code: JobFailureCode; message: string }
  | { kind: "other"; name: string; message: string; code?: string; stack?: string };

export function serializeError(err: unknown): WorkerError {
  if (err instanceof ToolError) return { kind: "tool", code: err.code, message: err.message };
  if (err instanceof Error) {
    const code = (err as { code?: unknown }).code;
    return {
      kind: "other",
      name: err.name,
      message: err.message,
      code: typeof code === "string" ? code : undefined,
      stack: err.stack,
    };
  }
  return { kind: "other", name: "NonError", message: String(err) };
}

export function deserializeError(data: WorkerError): Error {
  if (data.kind === "tool") return new ToolError(data.code, data.message);
  const err = new Error(data.message) as Error & { code?: string };
  err.name = data.name;
  if (data.code) err.code = data.code;
  if (data.stack) err.stack = data.stack;
  return err;
}
