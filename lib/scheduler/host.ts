import type { Db } from "@/lib/db/client";
import { redactDbError } from "@/lib/db/errors";
import type { KindWorker, ScheduleKind, SchedulerContext } from "./kinds";

/**
 * The schedules' side of a job runner: on each pass, housekeeping (with the runner's), due schedules claimed and
 * turned into work, and this process's workers topped up. The server, `npm run worker` and the cron route all
 * drive it through JobRunner.pass().
 */
export class SchedulerHost {
  private readonly workers: KindWorker[] = [];
  private stopped = false;

  constructor(
    private readonly db: Db,
    private readonly kinds: readonly ScheduleKind[],
    private readonly ctx: SchedulerContext,
  ) {
    for (const kind of kinds) {
      const worker = kind.createWorker?.(db, ctx);
      if (worker) this.workers.push(worker);
    }
  }

  /** One pass: maintenance when asked, then claims; a one-off pass (`wait`) also waits for the work it started. */
  async pass(opts: { maintenance: boolean; wait: boolean; waitMs?: number }): Promise<{ claimed: number }> {
    if (this.stopped) return { claimed: 0 };
    let claimed = 0;
    for (const kind of this.kinds) {
      try {
        if (opts.maintenance) await kind.maintain?.(this.db, this.ctx);
        claimed += await kind.claimDue(this.db, this.ctx);
      } catch (err) {
        console.error(`[scheduler ${kind.name}] pass failed`, redactDbError(err));
      }
    }
    for (const worker of this.workers) {
      await worker.fill().catch((err) => console.error("[scheduler] fill failed", redactDbError(err)));
    }
    if (opts.wait) await this.drain({ untilMs: Date.now() + (opts.waitMs ?? 25_000) });
    return { claimed };
  }

  async drain(opts: { untilMs?: number } = {}): Promise<void> {
    await Promise.all(this.workers.map((w) => w.drain(opts)));
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await Promise.all(this.workers.map((w) => w.stop()));
  }
}
