// npm run worker: a separate job-runner process (scale the runners apart from the web servers).
// With DATABASE_URL it shares the queue with every server. On the embedded database it works through
// the running server's socket, or holds the folder itself while no server runs.
import { getDbHandle } from "@/lib/db/client";
import { DataDirBusyError } from "@/lib/db/data-dir";
import { JobRunner } from "@/lib/jobs/runner";
import { exitGracefullyOnSignals } from "@/lib/server/graceful-stop";

const handle = await getDbHandle({ command: "npm run worker" }).catch((err: Error) => {
  if (err instanceof DataDirBusyError) {
    console.error(JSON.stringify({ error: err.message }));
    process.exit(1);
  }
  throw err;
});
const runner = new JobRunner(handle.db);
runner.start();
console.log(
  JSON.stringify({
    worker: runner.id,
    driver: handle.driver,
    database: handle.location,
    ...runner.options,
    started: new Date().toISOString(),
  }),
);

// SIGTERM/SIGINT: no more claims, the running jobs failed as INTERRUPTED and refunded, then exit, all within
// SHUTDOWN_GRACE_MS.
exitGracefullyOnSignals(
  async () => {
    await runner.stop();
    await handle.close();
  },
  { log: (message) => console.log(JSON.stringify({ worker: runner.id, message })) },
);
