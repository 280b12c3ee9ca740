// npm run worker: a separate job-runner process (scale the runners apart from the web servers).
// With DATABASE_URL it shares the queue with every server. On the embedded database it works through
// the running server's socket, or holds the folder itself while no server runs.
import { getDbHandle } from "@/lib/db/client";
import { DataDirBusyError } from "@/lib/db/data-dir";
import { JobRunner } from "@/lib/jobs/runner";

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

async function shutdown(signal: string) {
  console.log(JSON.stringify({ worker: runner.id, stopping: signal }));
  await runner.stop();
  await handle.close();
  process.exit(0);
}
process.once("SIGTERM", () => void shutdown("SIGTERM"));
process.once("SIGINT", () => void shutdown("SIGINT"));
