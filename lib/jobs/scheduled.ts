import { monitorScheduleKind } from "@/lib/monitors/schedule-kind";
import type { ScheduleKind } from "@/lib/scheduler/kinds";
import { auditScheduleKind } from "@/lib/schedules/schedule-kind";

/** The kinds of schedule every job runner drives. */
export const SCHEDULE_KINDS: readonly ScheduleKind[] = [monitorScheduleKind(), auditScheduleKind()];
