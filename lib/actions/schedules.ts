"use server";
import { revalidatePath } from "next/cache";
import { z } from "zod";
import {
  createScheduleAs,
  deleteScheduleAs,
  runScheduleNowAs,
  setSchedulePausedAs,
} from "@/lib/dashboard/schedules";
import { scheduleCreateInput } from "@/lib/schedules/schemas";
import { id, line } from "./fields";
import { actorAction } from "./safe-action";
import { type ActionState, type ScheduleFormState, toActionState } from "./state";

const refused = toActionState;
const scheduleId = z.object({ id: id("Unknown schedule.") });
const pagePath = (domain: string) => `/dashboard/domains/${encodeURIComponent(domain)}/audits`;

/** The form's text fields; numbers are read from text here and checked by the API's own schema. */
const createForm = z.object({
  tool: line(40, "The audit"),
  url: line(2048, "The URL"),
  every: line(10, "How often"),
  hour: line(2, "The hour"),
  timeZone: line(64, "The time zone"),
  weekday: line(12, "The weekday"),
  monthlyCreditCap: line(12, "The monthly cap"),
});

const whole = (v: string) => (/^\d+$/.test(v.trim()) ? Number(v.trim()) : v.trim() === "" ? undefined : v);

const createScheduleForm = actorAction(
  { input: createForm, role: "admin", refused },
  async ({ db, actor, input }): Promise<ActionState> => {
    const parsed = scheduleCreateInput.safeParse({
      tool: input.tool,
      url: input.url.trim(),
      every: input.every,
      hour: whole(input.hour),
      timeZone: input.timeZone.trim(),
      ...(input.every === "week" ? { weekday: input.weekday } : {}),
      ...(whole(input.monthlyCreditCap) !== undefined
        ? { monthlyCreditCap: whole(input.monthlyCreditCap) }
        : {}),
    });
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      return { error: issue?.message ?? "Check the form.", field: issue?.path.map(String).join(".") };
    }
    const s = await createScheduleAs(db, actor, parsed.data);
    revalidatePath(pagePath(s.domain));
    return { ok: true };
  },
);

/** Schedules an audit of a URL of the domain (owner or admin); a refused form keeps what was typed. */
export async function createScheduleAction(
  _prev: ScheduleFormState,
  form: FormData,
): Promise<ScheduleFormState> {
  const field = (name: string) => {
    const v = form.get(name);
    return typeof v === "string" ? v.slice(0, 4096) : "";
  };
  const values = {
    tool: field("tool"),
    url: field("url"),
    every: field("every"),
    hour: field("hour"),
    timeZone: field("timeZone"),
    weekday: field("weekday"),
    monthlyCreditCap: field("monthlyCreditCap"),
  };
  const state = await createScheduleForm(values);
  return state.ok ? state : { ...state, values };
}

const pause = actorAction(
  { input: scheduleId.extend({ paused: z.boolean() }), role: "admin", refused },
  async ({ db, actor, input }): Promise<ActionState> => {
    const s = await setSchedulePausedAs(db, actor, input.id, input.paused);
    revalidatePath(pagePath(s.domain));
    return { ok: true };
  },
);

export async function pauseScheduleAction(scheduleIdValue: string, paused: boolean): Promise<ActionState> {
  return pause({ id: scheduleIdValue, paused });
}

const remove = actorAction(
  { input: scheduleId.extend({ domain: line(253, "The domain") }), role: "admin", refused },
  async ({ db, actor, input }): Promise<ActionState> => {
    await deleteScheduleAs(db, actor, input.id);
    revalidatePath(pagePath(input.domain));
    return { ok: true };
  },
);

export async function deleteScheduleAction(scheduleIdValue: string, domain: string): Promise<ActionState> {
  return remove({ id: scheduleIdValue, domain });
}

const runNow = actorAction(
  { input: scheduleId.extend({ domain: line(253, "The domain") }), role: "admin", refused },
  async ({ db, actor, input }): Promise<ActionState> => {
    await runScheduleNowAs(db, actor, input.id);
    revalidatePath(pagePath(input.domain));
    return { ok: true };
  },
);

/** A billed run now; its result appears in the history once its job finishes. */
export async function runScheduleNowAction(scheduleIdValue: string, domain: string): Promise<ActionState> {
  return runNow({ id: scheduleIdValue, domain });
}
