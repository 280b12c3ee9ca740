// The dashboard's scheduled-audits layer: the services behind the owner/admin rule for changes, refusals as form
// errors, and a domain's page (its schedules with their trend, open issues and last changes).

import { requireOwnDomain } from "@/lib/accounts/domains";
import type { Db } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { jobEvents } from "@/lib/jobs/events";
import {
  createSchedule,
  deleteSchedule,
  listSchedules,
  runScheduleNow,
  type ScheduleCreateInput,
  type ScheduleOverview,
  scheduleOverview,
  updateSchedule,
} from "@/lib/schedules";
import { FormError } from "./errors";
import { type Actor, requireManager } from "./members";

async function asForm<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof AppError && err.details.reason === "tool_not_available_here") {
      // The API's refusal may name a server setting; customers read what it means for them.
      throw new FormError(
        "This audit cannot run on this service at the moment. Nothing was charged.",
        "tool",
      );
    }
    if (err instanceof AppError) {
      const field = typeof err.details.field === "string" ? err.details.field : undefined;
      throw new FormError(err.message, field);
    }
    throw err;
  }
}

/** A registered domain's schedules, each with its trend, open issues and last changes; null for another domain. */
export async function domainAudits(
  db: Db,
  actor: Actor,
  domain: string,
): Promise<{ domain: string; schedules: ScheduleOverview[] } | null> {
  const row = await requireOwnDomain(db, actor.accountId, domain).catch((err: unknown) => {
    if (err instanceof AppError) return null;
    throw err;
  });
  if (!row) return null;
  const { schedules } = await listSchedules(db, actor.accountId, { domain: row.hostname, limit: 100 });
  const overviews = await Promise.all(schedules.map((s) => scheduleOverview(db, actor.accountId, s.id)));
  return { domain: row.hostname, schedules: overviews };
}

export async function createScheduleAs(db: Db, actor: Actor, input: ScheduleCreateInput) {
  requireManager(actor);
  return asForm(() => createSchedule(db, actor.accountId, input));
}

export async function setSchedulePausedAs(db: Db, actor: Actor, id: string, paused: boolean) {
  requireManager(actor);
  return asForm(() => updateSchedule(db, actor.accountId, id, { status: paused ? "paused" : "active" }));
}

export async function deleteScheduleAs(db: Db, actor: Actor, id: string) {
  requireManager(actor);
  return asForm(() => deleteSchedule(db, actor.accountId, id));
}

export async function runScheduleNowAs(db: Db, actor: Actor, id: string) {
  requireManager(actor);
  const started = await asForm(() => runScheduleNow(db, actor.accountId, id));
  if (started.jobId) jobEvents.emit("created", started.jobId);
  return started;
}
