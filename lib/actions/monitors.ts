"use server";
import { revalidatePath } from "next/cache";
import { z } from "zod";
import {
  createMonitorAs,
  deleteMonitorAs,
  pauseMonitorAs,
  resumeMonitorAs,
  runMonitorNowAs,
  suggestPromptsAs,
  updateMonitorAs,
} from "@/lib/dashboard/monitors";
import type { PromptSuggestions } from "@/lib/monitors/schemas";
import { actorAction } from "./safe-action";
import { type ActionState, toActionState } from "./state";

const refused = toActionState;
const monitorId = z.uuid({ error: "Not a monitor of this account." });

export type MonitorSavedState = ActionState & { id?: string };
export type RunNowState = ActionState & { runId?: string; creditsCharged?: number };
export type SuggestState = ActionState & { prompts?: PromptSuggestions["prompts"] };

// The monitor's own fields are parsed by the service layer with the API's schema (its field names in errors).
const createMonitor = actorAction(
  { input: z.object({ monitor: z.unknown() }), role: "admin", refused },
  async ({ db, actor, input }): Promise<MonitorSavedState> => {
    const m = await createMonitorAs(db, actor, input.monitor);
    revalidatePath("/dashboard/monitors");
    return { ok: true, id: m.id };
  },
);

/** Creates a monitor (owner or admin); a refused value comes back as a form error naming its field. */
export async function createMonitorAction(monitor: unknown): Promise<MonitorSavedState> {
  return createMonitor({ monitor });
}

const updateMonitor = actorAction(
  { input: z.object({ id: monitorId, changes: z.unknown() }), role: "admin", refused },
  async ({ db, actor, input }): Promise<MonitorSavedState> => {
    const m = await updateMonitorAs(db, actor, input.id, input.changes);
    revalidatePath("/dashboard/monitors");
    revalidatePath(`/dashboard/monitors/${m.id}`);
    return { ok: true, id: m.id };
  },
);

export async function updateMonitorAction(id: string, changes: unknown): Promise<MonitorSavedState> {
  return updateMonitor({ id, changes });
}

const simple = (fn: typeof pauseMonitorAs | typeof resumeMonitorAs | typeof deleteMonitorAs) =>
  actorAction(
    { input: z.object({ id: monitorId }), role: "admin", refused },
    async ({ db, actor, input }): Promise<ActionState> => {
      await fn(db, actor, input.id);
      revalidatePath("/dashboard/monitors");
      revalidatePath(`/dashboard/monitors/${input.id}`);
      return { ok: true };
    },
  );

const pause = simple(pauseMonitorAs);
const resume = simple(resumeMonitorAs);
const remove = simple(deleteMonitorAs);

export async function pauseMonitorAction(id: string): Promise<ActionState> {
  return pause({ id });
}
export async function resumeMonitorAction(id: string): Promise<ActionState> {
  return resume({ id });
}
/** Deletes the monitor with its runs and answers (owner or admin). */
export async function deleteMonitorAction(id: string): Promise<ActionState> {
  return remove({ id });
}

const runNow = actorAction(
  { input: z.object({ id: monitorId }), role: "admin", refused },
  async ({ db, actor, input }): Promise<RunNowState> => {
    const run = await runMonitorNowAs(db, actor, input.id);
    revalidatePath("/dashboard/monitors");
    revalidatePath(`/dashboard/monitors/${input.id}`);
    return { ok: true, runId: run.id, creditsCharged: run.creditsCharged };
  },
);

/** A run now, billed like a scheduled run; a balance or cap that cannot cover it is refused, nothing charged. */
export async function runMonitorNowAction(id: string): Promise<RunNowState> {
  return runNow({ id });
}

const suggest = actorAction(
  { input: z.object({ domain: z.string().max(253) }), role: "admin", refused },
  async ({ db, actor, input }): Promise<SuggestState> => {
    const s = await suggestPromptsAs(db, actor, input.domain);
    return { ok: true, prompts: s.prompts };
  },
);

/** Ten prompts read from the domain's own site (its questions and keyphrases); nothing is charged. */
export async function suggestPromptsAction(domain: string): Promise<SuggestState> {
  return suggest({ domain });
}
