import { monitorScheduleKind } from "@/lib/monitors/schedule-kind";
import type { ScheduleKind } from "@/lib/scheduler/kinds";

/** The kinds of schedule every job runner drives (scheduled site audits join this list). */
export const SCHEDULE_KINDS: readonly ScheduleKind[] = [monitorScheduleKind()];
