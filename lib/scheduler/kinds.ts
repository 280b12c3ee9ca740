import type { Db } from "@/lib/db/client";
import type { GuardedFetch } from "@/lib/fetch/types";
import type { Env } from "@/lib/providers/engine-types";

/** What a kind of schedule is handed on every pass of a job runner. */
export interface SchedulerContext {
  /** The runner's id: the lease owner of whatever this process claims. */
  owner: string;
  env: Env;
  fetch: GuardedFetch;
}

/** The work a kind's claimed items need (a monitor run's answers), done by this process in the background. */
export interface KindWorker {
  /** Claims what this process may start now and starts it; returns how many items were started. */
  fill(): Promise<number>;
  /** Waits until this process has nothing left to start or finish (a one-off pass, tests). */
  drain(opts?: { untilMs?: number }): Promise<void>;
  /** Stops claiming; items in flight are left to their lease (another process takes them over). */
  stop(): Promise<void>;
}

/**
 * A kind of schedule (AI visibility monitors; scheduled site audits plug in the same way). Due rows are
 * claimed by any process with FOR UPDATE SKIP LOCKED (claimDueRow), so two processes never run one schedule
 * slot twice; `maintain` recovers abandoned work and purges history in the runner's housekeeping.
 */
export interface ScheduleKind {
  name: string;
  /** Turns due schedules into work (a charged or skipped run) and moves each to its next time; returns how many. */
  claimDue(db: Db, ctx: SchedulerContext): Promise<number>;
  maintain?(db: Db, ctx: SchedulerContext): Promise<void>;
  createWorker?(db: Db, ctx: SchedulerContext): KindWorker;
}
