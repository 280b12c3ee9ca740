import { and, desc, eq, sql } from "drizzle-orm";
import type { Db, DbOrTx } from "@/lib/db/client";
import { rowsOf } from "@/lib/db/rows";
import { type AuditSchedule, auditSchedules, domains } from "@/lib/db/schema";
import { AppError, notFound } from "@/lib/errors";
import { decodeCursor, encodeCursor } from "@/lib/monitors/cursor";
import { canonicalTimeZone, nextRunAfter, offsetInHour } from "@/lib/scheduler/time";
import { getTool } from "@/lib/tools/catalog";
import { loadServerAvailability } from "@/lib/tools/load-availability";
import { readServerEnv } from "@/lib/tools/server-env";
import { type AnyTool, checkAvailability, type Env } from "@/lib/tools/types";
import {
  type ListSchedulesQuery,
  SCHEDULE_LIMITS,
  type ScheduleCreateInput,
  type ScheduleEstimate,
  type ScheduleList,
  type ScheduleUpdateInput,
  type ScheduleView,
  WEEKDAYS,
} from "./schemas";

function invalid(field: string, message: string, extra: Record<string, unknown> = {}): AppError {
  return new AppError("VALIDATION_ERROR", `${field}: ${message}`, {
    field,
    ...extra,
    issues: [{ field, message }],
  });
}

function zoneOf(timeZone: string): string {
  const zone = canonicalTimeZone(timeZone);
  if (!zone) throw invalid("timeZone", "Not an IANA time zone such as Europe/Paris or America/New_York.");
  return zone;
}

/** The catalogue tool a schedule runs. */
export function toolOf(name: string): AnyTool {
  const tool = getTool(name);
  if (!tool) throw invalid("tool", "Not a tool that can be scheduled.");
  return tool;
}

/** The tool's validated input for a schedule (the URL, and the strategy of Core Web Vitals). */
function toolInputOf(tool: string, url: string, strategy?: "mobile" | "desktop"): unknown {
  const raw = tool === "core-web-vitals" ? { url, strategy: strategy ?? "mobile" } : { url };
  const parsed = toolOf(tool).input.safeParse(raw);
  if (!parsed.success) throw invalid("url", "Not a URL this tool can audit.");
  return parsed.data;
}

/**
 * Refuses, before anything is stored or charged, a tool that cannot run on this server (a built tool missing
 * what it needs, such as the browser of Core Web Vitals): the same verdict a job's creation gives.
 */
export async function requireRunnable(db: DbOrTx, tool: AnyTool, input: unknown, env?: Env): Promise<void> {
  if (tool.unavailable) {
    throw invalid("tool", `${tool.title} is not available on this service yet.`, {
      reason: "tool_not_available_here",
    });
  }
  const serverEnv = readServerEnv(env ?? process.env);
  let verdict = tool.availability ? checkAvailability(tool, input, serverEnv) : { ok: true as const };
  if (verdict.ok) {
    const serverCheck = await loadServerAvailability(tool.name);
    if (serverCheck) verdict = await serverCheck(db, input, serverEnv);
  }
  if (!verdict.ok) {
    throw new AppError("VALIDATION_ERROR", verdict.reason, {
      field: "tool",
      reason: "tool_not_available_here",
      ...verdict.details,
      issues: [{ field: "tool", message: verdict.reason }],
    });
  }
}

/** The account's registered domain a URL belongs to (its host or a subdomain of it), or 403 FORBIDDEN_SCOPE. */
async function requireDomainOfUrl(db: DbOrTx, accountId: string, url: string) {
  const host = new URL(url).hostname.toLowerCase().replace(/\.$/, "");
  const rows = await db
    .select()
    .from(domains)
    .where(
      and(
        eq(domains.accountId, accountId),
        sql`(${domains.hostname} = ${host} or ${host} like '%.' || ${domains.hostname})`,
      ),
    );
  const best = rows.sort((a, b) => b.hostname.length - a.hostname.length)[0];
  if (!best) {
    throw new AppError("FORBIDDEN_SCOPE", `The domain of ${host} is not registered on this account.`, {
      domain: host,
    });
  }
  return best;
}

function estimateOf(tool: AnyTool, input: unknown, every: "day" | "week"): ScheduleEstimate {
  const creditsPerRun = tool.cost(input);
  const runsPerMonth = every === "day" ? 30 : Math.round((52 / 12) * 100) / 100;
  return { creditsPerRun, runsPerMonth, creditsPerMonth: Math.ceil(creditsPerRun * runsPerMonth) };
}

/** The next run after `after` for a schedule row (its own stable offset inside the hour). */
export function nextRunOf(
  s: Pick<AuditSchedule, "id" | "every" | "hour" | "weekday" | "timeZone">,
  after: Date,
): Date {
  return nextRunAfter(
    { every: s.every, hour: s.hour, weekday: s.weekday, timeZone: s.timeZone },
    after,
    offsetInHour(s.id),
  );
}

export function scheduleView(s: AuditSchedule): ScheduleView {
  const tool = toolOf(s.tool);
  const strategy = (s.input as { strategy?: "mobile" | "desktop" }).strategy;
  return {
    id: s.id,
    domain: s.domain,
    tool: s.tool,
    url: s.url,
    every: s.every,
    hour: s.hour,
    timeZone: s.timeZone,
    ...(s.every === "week" && s.weekday !== null ? { weekday: WEEKDAYS[s.weekday]! } : {}),
    ...(strategy ? { strategy } : {}),
    monthlyCreditCap: s.monthlyCreditCap,
    status: s.status,
    pauseReason: s.pauseReason,
    nextRunAt: s.nextRunAt?.toISOString() ?? null,
    estimate: estimateOf(tool, s.input, s.every),
    createdAt: s.createdAt.toISOString(),
    updatedAt: s.updatedAt.toISOString(),
  };
}

/**
 * Creates a schedule for a URL of a domain registered on the account (403 otherwise), at most 20 per domain; a
 * tool that cannot run here is refused first. Free: each run is billed. The first run is the next slot.
 */
export async function createSchedule(
  db: Db,
  accountId: string,
  input: ScheduleCreateInput,
  env?: Env,
): Promise<ScheduleView> {
  const tool = toolOf(input.tool);
  const toolInput = toolInputOf(input.tool, input.url, input.strategy);
  const timeZone = zoneOf(input.timeZone);
  await requireRunnable(db, tool, toolInput, env);
  const domain = await requireDomainOfUrl(db, accountId, input.url);
  const id = crypto.randomUUID();
  const base = {
    id,
    every: input.every,
    hour: input.hour,
    weekday: input.every === "week" ? WEEKDAYS.indexOf(input.weekday!) : null,
    timeZone,
  };
  return db.transaction(async (tx) => {
    // The domain's row is locked so that two creations at once cannot both pass the limit.
    await tx.execute(sql`select id from domains where id = ${domain.id} for update`);
    const [count] = rowsOf<{ n: number }>(
      await tx.execute(sql`select count(*)::int as n from audit_schedules where domain_id = ${domain.id}`),
    );
    if (Number(count?.n ?? 0) >= SCHEDULE_LIMITS.perDomain) {
      throw invalid(
        "url",
        `${domain.hostname} already has ${SCHEDULE_LIMITS.perDomain} schedules, the most a domain may have. Delete one first.`,
        { reason: "schedule_limit", limit: SCHEDULE_LIMITS.perDomain },
      );
    }
    const [row] = await tx
      .insert(auditSchedules)
      .values({
        ...base,
        accountId,
        domainId: domain.id,
        domain: domain.hostname,
        tool: input.tool,
        url: (toolInput as { url: string }).url,
        input: toolInput,
        monthlyCreditCap: input.monthlyCreditCap ?? null,
        nextRunAt: nextRunOf(base, new Date()),
      })
      .returning();
    return scheduleView(row!);
  });
}

export async function requireSchedule(db: DbOrTx, accountId: string, id: string): Promise<AuditSchedule> {
  const [row] = await db
    .select()
    .from(auditSchedules)
    .where(and(eq(auditSchedules.id, id), eq(auditSchedules.accountId, accountId)));
  if (!row) throw notFound("Schedule");
  return row;
}

export async function getSchedule(db: DbOrTx, accountId: string, id: string): Promise<ScheduleView> {
  return scheduleView(await requireSchedule(db, accountId, id));
}

/** The account's schedules, newest first, cursor-paged; optionally those of one domain. */
export async function listSchedules(
  db: DbOrTx,
  accountId: string,
  query: ListSchedulesQuery,
): Promise<ScheduleList> {
  const where = [eq(auditSchedules.accountId, accountId)];
  if (query.domain) where.push(eq(auditSchedules.domain, query.domain));
  if (query.cursor) {
    const c = decodeCursor(query.cursor);
    where.push(
      sql`(${auditSchedules.createdAt}, ${auditSchedules.id}) < (${c.createdAt}::timestamptz, ${c.id}::uuid)`,
    );
  }
  const rows = await db
    .select({
      s: auditSchedules,
      t: sql<string>`to_char(${auditSchedules.createdAt} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`,
    })
    .from(auditSchedules)
    .where(and(...where))
    .orderBy(desc(auditSchedules.createdAt), desc(auditSchedules.id))
    .limit(query.limit + 1);
  const page = rows.slice(0, query.limit);
  const last = page[page.length - 1];
  return {
    schedules: page.map((r) => scheduleView(r.s)),
    nextCursor: rows.length > query.limit && last ? encodeCursor(last.t, last.s.id) : null,
  };
}

/**
 * Changes a schedule: its time (every, hour, timeZone and weekday together), its cap, or pauses / resumes it. A
 * resumed schedule runs from its next slot; one paused because its domain was removed resumes once the domain is
 * registered on the account again (403 until then).
 */
export async function updateSchedule(
  db: Db,
  accountId: string,
  id: string,
  input: ScheduleUpdateInput,
): Promise<ScheduleView> {
  const current = await requireSchedule(db, accountId, id);
  const set: Partial<typeof auditSchedules.$inferInsert> = { updatedAt: new Date() };
  const timing = {
    id,
    every: current.every,
    hour: current.hour,
    weekday: current.weekday,
    timeZone: current.timeZone,
  };
  if (input.every !== undefined && input.hour !== undefined && input.timeZone !== undefined) {
    timing.every = input.every;
    timing.hour = input.hour;
    timing.timeZone = zoneOf(input.timeZone);
    timing.weekday = input.every === "week" ? WEEKDAYS.indexOf(input.weekday!) : null;
    Object.assign(set, {
      every: timing.every,
      hour: timing.hour,
      timeZone: timing.timeZone,
      weekday: timing.weekday,
    });
  } else if (input.hour !== undefined || input.timeZone !== undefined) {
    if (input.hour !== undefined) timing.hour = input.hour;
    if (input.timeZone !== undefined) timing.timeZone = zoneOf(input.timeZone);
    Object.assign(set, { hour: timing.hour, timeZone: timing.timeZone });
  }
  if (input.monthlyCreditCap !== undefined) set.monthlyCreditCap = input.monthlyCreditCap;
  const status = input.status ?? current.status;
  if (status === "paused") {
    Object.assign(set, {
      status: "paused",
      pauseReason: current.status === "paused" ? current.pauseReason : "paused_by_user",
      nextRunAt: null,
    });
  } else {
    let domainId = current.domainId;
    if (current.status === "paused") {
      domainId = (await requireDomainOfUrl(db, accountId, current.url)).id;
    }
    Object.assign(set, {
      status: "active",
      pauseReason: null,
      domainId,
      nextRunAt:
        current.status === "paused" || set.hour !== undefined
          ? nextRunOf(timing, new Date())
          : current.nextRunAt,
    });
  }
  const [row] = await db
    .update(auditSchedules)
    .set(set)
    .where(and(eq(auditSchedules.id, id), eq(auditSchedules.accountId, accountId)))
    .returning();
  if (!row) throw notFound("Schedule");
  return scheduleView(row);
}

/** Deletes a schedule with its history (credit transactions stay). A job under way finishes on its own. */
export async function deleteSchedule(db: DbOrTx, accountId: string, id: string) {
  const rows = await db
    .delete(auditSchedules)
    .where(and(eq(auditSchedules.id, id), eq(auditSchedules.accountId, accountId)))
    .returning({ id: auditSchedules.id });
  if (rows.length === 0) throw notFound("Schedule");
  return { id, deleted: true as const };
}
