import { and, desc, eq, sql } from "drizzle-orm";
import { requireRegisteredDomain } from "@/lib/accounts/domains";
import { findRegistrableDomain } from "@/lib/ai-visibility/domains";
import type { Db, DbOrTx } from "@/lib/db/client";
import { type Monitor, monitors } from "@/lib/db/schema";
import { AppError, notFound } from "@/lib/errors";
import { ENGINE_NAMES, type EngineName, type Env } from "@/lib/providers/engine-types";
import { listConfiguredEngines } from "@/lib/providers/engines";
import { canonicalTimeZone, nextRunAfter, offsetInHour, type ScheduleSpec } from "@/lib/scheduler/time";
import { decodeCursor, encodeCursor } from "./cursor";
import { estimateCost } from "./estimate";
import {
  type ListMonitorsQuery,
  type MonitorCreateInput,
  type MonitorList,
  type MonitorUpdateInput,
  type MonitorView,
  type ScheduleInput,
  WEEKDAYS,
} from "./schemas";

function invalid(field: string, message: string, extra: Record<string, unknown> = {}): AppError {
  return new AppError("VALIDATION_ERROR", `${field}: ${message}`, {
    field,
    ...extra,
    issues: [{ field, message }],
  });
}

/**
 * The engines asked for, every one configured here; omitted → every configured engine. Checked before anything
 * is stored or charged; the refusal names the engines this service offers (never its settings).
 */
function resolveEngines(wanted: readonly EngineName[] | undefined, env: Env): EngineName[] {
  const configured = listConfiguredEngines(env);
  if (configured.length === 0) {
    throw invalid("engines", "No AI engine is available on this service yet, so nothing can be monitored.", {
      reason: "no_engine_configured",
      available: [],
    });
  }
  if (!wanted) return configured;
  const missing = wanted.filter((e) => !configured.includes(e));
  if (missing.length > 0) {
    throw invalid(
      "engines",
      `${missing.join(", ")} ${missing.length === 1 ? "is" : "are"} not available on this service. Available engines: ${configured.join(", ")}.`,
      { reason: "engine_not_available", available: configured, unavailable: missing },
    );
  }
  return ENGINE_NAMES.filter((e) => wanted.includes(e));
}

/** The schedule with its zone checked and canonical (an unknown zone is a 400 naming the field). */
function resolveSchedule(s: ScheduleInput): ScheduleSpec {
  const zone = canonicalTimeZone(s.timeZone);
  if (!zone)
    throw invalid("schedule.timeZone", "Not an IANA time zone such as Europe/Paris or America/New_York.");
  return {
    every: s.every,
    hour: s.hour,
    timeZone: zone,
    weekday: s.every === "week" ? WEEKDAYS.indexOf(s.weekday!) : null,
  };
}

function cleanCompetitors(list: readonly string[] | undefined, domain: string): string[] {
  const own = findRegistrableDomain(domain) ?? domain;
  const out: string[] = [];
  for (const c of list ?? []) {
    const d = findRegistrableDomain(c) ?? c;
    if (d === own) throw invalid("competitors", `${c} is the monitored domain itself.`);
    if (!out.includes(d)) out.push(d);
  }
  return out;
}

/** The next run after `after` for a monitor row's schedule (its own offset inside the hour). */
export function nextRunOf(
  m: Pick<Monitor, "id" | "every" | "hour" | "weekday" | "timeZone">,
  after: Date,
): Date {
  return nextRunAfter(
    { every: m.every, hour: m.hour, weekday: m.weekday, timeZone: m.timeZone },
    after,
    offsetInHour(m.id),
  );
}

function monitorView(m: Monitor): MonitorView {
  return {
    id: m.id,
    domain: m.domain,
    name: m.name,
    status: m.status,
    pauseReason: m.pauseReason,
    prompts: m.prompts,
    competitors: m.competitors,
    brandNames: m.brandNames,
    engines: m.engines as EngineName[],
    samples: m.samples,
    schedule: {
      every: m.every,
      hour: m.hour,
      timeZone: m.timeZone,
      ...(m.every === "week" && m.weekday !== null ? { weekday: WEEKDAYS[m.weekday]! } : {}),
    },
    monthlyCreditCap: m.monthlyCreditCap,
    nextRunAt: m.nextRunAt?.toISOString() ?? null,
    estimate: estimateCost({ prompts: m.prompts, engines: m.engines, samples: m.samples, every: m.every }),
    createdAt: m.createdAt.toISOString(),
    updatedAt: m.updatedAt.toISOString(),
  };
}

/** Creates a monitor on a domain registered on the account (403 otherwise); its first run is its next slot. */
export async function createMonitor(
  db: Db,
  accountId: string,
  input: MonitorCreateInput,
  env: Env = process.env,
): Promise<MonitorView> {
  const engines = resolveEngines(input.engines, env);
  const schedule = resolveSchedule(input.schedule);
  const domain = await requireRegisteredDomain(db, accountId, input.domain);
  const id = crypto.randomUUID();
  const base = {
    id,
    every: schedule.every,
    hour: schedule.hour,
    weekday: schedule.weekday ?? null,
    timeZone: schedule.timeZone,
  };
  const [row] = await db
    .insert(monitors)
    .values({
      ...base,
      accountId,
      domainId: domain.id,
      domain: domain.hostname,
      name: input.name ?? null,
      prompts: input.prompts,
      competitors: cleanCompetitors(input.competitors, domain.hostname),
      brandNames: input.brandNames ?? [],
      engines,
      samples: input.samples ?? 3,
      monthlyCreditCap: input.monthlyCreditCap ?? null,
      nextRunAt: nextRunOf(base, new Date()),
    })
    .returning();
  return monitorView(row!);
}

async function requireMonitor(db: DbOrTx, accountId: string, id: string): Promise<Monitor> {
  const [row] = await db
    .select()
    .from(monitors)
    .where(and(eq(monitors.id, id), eq(monitors.accountId, accountId)));
  if (!row) throw notFound("Monitor");
  return row;
}

export { requireMonitor };

export async function getMonitor(db: DbOrTx, accountId: string, id: string): Promise<MonitorView> {
  return monitorView(await requireMonitor(db, accountId, id));
}

/** The account's monitors, newest first, cursor-paged; optionally those of one domain. */
export async function listMonitors(
  db: DbOrTx,
  accountId: string,
  query: ListMonitorsQuery,
): Promise<MonitorList> {
  const where = [eq(monitors.accountId, accountId)];
  if (query.domain) where.push(eq(monitors.domain, query.domain));
  if (query.cursor) {
    const c = decodeCursor(query.cursor);
    where.push(sql`(${monitors.createdAt}, ${monitors.id}) < (${c.createdAt}::timestamptz, ${c.id}::uuid)`);
  }
  const rows = await db
    .select({
      m: monitors,
      t: sql<string>`to_char(${monitors.createdAt} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`,
    })
    .from(monitors)
    .where(and(...where))
    .orderBy(desc(monitors.createdAt), desc(monitors.id))
    .limit(query.limit + 1);
  const page = rows.slice(0, query.limit);
  const last = page[page.length - 1];
  return {
    monitors: page.map((r) => monitorView(r.m)),
    nextCursor: rows.length > query.limit && last ? encodeCursor(last.t, last.m.id) : null,
  };
}

/** Changes a monitor; a new schedule moves its next run. Engines are checked as at creation. */
export async function updateMonitor(
  db: Db,
  accountId: string,
  id: string,
  input: MonitorUpdateInput,
  env: Env = process.env,
): Promise<MonitorView> {
  const current = await requireMonitor(db, accountId, id);
  const engines = input.engines ? resolveEngines(input.engines, env) : undefined;
  const schedule = input.schedule ? resolveSchedule(input.schedule) : undefined;
  const set: Partial<typeof monitors.$inferInsert> = { updatedAt: new Date() };
  if (input.name !== undefined) set.name = input.name;
  if (input.prompts) set.prompts = input.prompts;
  if (input.competitors) set.competitors = cleanCompetitors(input.competitors, current.domain);
  if (input.brandNames) set.brandNames = input.brandNames;
  if (engines) set.engines = engines;
  if (input.samples !== undefined) set.samples = input.samples;
  if (input.monthlyCreditCap !== undefined) set.monthlyCreditCap = input.monthlyCreditCap;
  if (schedule) {
    set.every = schedule.every;
    set.hour = schedule.hour;
    set.weekday = schedule.weekday ?? null;
    set.timeZone = schedule.timeZone;
    if (current.status === "active") {
      set.nextRunAt = nextRunOf(
        {
          id,
          every: schedule.every,
          hour: schedule.hour,
          weekday: schedule.weekday ?? null,
          timeZone: schedule.timeZone,
        },
        new Date(),
      );
    }
  }
  const [row] = await db
    .update(monitors)
    .set(set)
    .where(and(eq(monitors.id, id), eq(monitors.accountId, accountId)))
    .returning();
  if (!row) throw notFound("Monitor");
  return monitorView(row);
}

/** Deletes a monitor with its runs and answers (ledger rows stay, their run id cleared). */
export async function deleteMonitor(db: DbOrTx, accountId: string, id: string) {
  const rows = await db
    .delete(monitors)
    .where(and(eq(monitors.id, id), eq(monitors.accountId, accountId)))
    .returning({ id: monitors.id });
  if (rows.length === 0) throw notFound("Monitor");
  return { id, deleted: true as const };
}

export async function pauseMonitor(db: DbOrTx, accountId: string, id: string): Promise<MonitorView> {
  const current = await requireMonitor(db, accountId, id);
  if (current.status === "paused") return monitorView(current);
  const [row] = await db
    .update(monitors)
    .set({ status: "paused", pauseReason: "paused_by_user", nextRunAt: null, updatedAt: new Date() })
    .where(and(eq(monitors.id, id), eq(monitors.accountId, accountId)))
    .returning();
  return monitorView(row!);
}

/**
 * Resumes a paused monitor from its next slot. A monitor paused because its domain was removed resumes once the
 * domain is registered on the account again (403 until then).
 */
export async function resumeMonitor(db: DbOrTx, accountId: string, id: string): Promise<MonitorView> {
  const current = await requireMonitor(db, accountId, id);
  if (current.status === "active") return monitorView(current);
  const domain = await requireRegisteredDomain(db, accountId, current.domain);
  const [row] = await db
    .update(monitors)
    .set({
      status: "active",
      pauseReason: null,
      domainId: domain.id,
      nextRunAt: nextRunOf(current, new Date()),
      updatedAt: new Date(),
    })
    .where(and(eq(monitors.id, id), eq(monitors.accountId, accountId)))
    .returning();
  return monitorView(row!);
}
