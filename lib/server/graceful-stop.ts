// How the serving process and the worker stop on SIGTERM/SIGINT: stop taking work, record what was running
// (jobs failed as INTERRUPTED and refunded), then exit, within a bounded time. A second signal, or the bound
// passing, exits at once; jobs not recorded by then are failed and refunded by the lease recovery of the next
// runner, as after a crash.

/** How long a graceful stop may take before the process exits anyway (SHUTDOWN_GRACE_MS, default 10 s). */
function shutdownGraceMs(env: NodeJS.ProcessEnv = process.env): number {
  const raw = Number(env.SHUTDOWN_GRACE_MS);
  return Number.isFinite(raw) && raw > 0 ? raw : 10_000;
}

/**
 * On the first SIGTERM or SIGINT runs `stop` and exits 0 when it settles (1 if it failed), or 1 once `graceMs`
 * have passed; another signal more than a second later exits 1 at once.
 */
export function exitGracefullyOnSignals(
  stop: (signal: NodeJS.Signals) => Promise<unknown>,
  opts: { graceMs?: number; log?: (message: string) => void } = {},
): void {
  const graceMs = opts.graceMs ?? shutdownGraceMs();
  const log = opts.log ?? ((m: string) => console.log(m));
  let started: number | undefined;
  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    process.on(signal, () => {
      // Ctrl-C reaches `npm start` and this process alike, and `npm start` passes it on: a repeat within a
      // second is that same signal; a later one means "now".
      if (started !== undefined) {
        if (Date.now() - started > 1_000) process.exit(1);
        return;
      }
      started = Date.now();
      log(`${signal}: stopping (at most ${graceMs} ms)`);
      setTimeout(() => {
        log(`stop took longer than ${graceMs} ms: exiting`);
        process.exit(1);
      }, graceMs).unref();
      stop(signal).then(
        () => {
          log(`stopped in ${Date.now() - (started ?? 0)} ms`);
          process.exit(0);
        },
        (err: unknown) => {
          console.error("stop failed", err);
          process.exit(1);
        },
      );
    });
  }
}
