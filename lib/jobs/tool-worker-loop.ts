// Runs inside a tool worker thread: one task at a time, sent by lib/jobs/tool-pool.ts.
import { pathToFileURL } from "node:url";
import { parentPort } from "node:worker_threads";
import { guardedFetch } from "@/lib/fetch";
import type { AnyToolRunner } from "@/lib/tools/types";
import { type FromWorker, serializeError, type ToWorker } from "./worker-protocol";

const port = parentPort;
if (!port) throw new Error("tool-worker-loop runs only inside a worker thread");

const modules = new Map<string, Promise<AnyToolRunner>>();
const controllers = new Map<number, AbortController>();

function loadRunner(file: string): Promise<AnyToolRunner> {
  let loaded = modules.get(file);
  if (!loaded) {
    loaded = import(pathToFileURL(file).href).then((mod: { runner?: AnyToolRunner }) => {
      if (typeof mod.runner?.run !== "function") throw new Error(`${file} exports no runner`);
      return mod.runner;
    });
    // A failed import is retried by the next task instead of being remembered.
    loaded.catch(() => modules.delete(file));
    modules.set(file, loaded);
  }
  return loaded;
}

function send(message: FromWorker) {
  port!.postMessage(message);
}

async function runTask(task: Extract<ToWorker, { type: "run" }>) {
  const controller = new AbortController();
  controllers.set(task.taskId, controller);
  try {
    const runner = await loadRunner(task.file);
    send({ type: "started", taskId: task.taskId });
    const result = await runner.run(task.input, {
      jobId: task.jobId,
      accountId: task.accountId,
      signal: controller.signal,
      fetch: guardedFetch,
      env: task.env,
    });
    // A result that cannot be cloned (a function, a class instance with private state) throws here.
    send({ type: "done", taskId: task.taskId, ok: true, result });
  } catch (err) {
    send({ type: "done", taskId: task.taskId, ok: false, error: serializeError(err) });
  } finally {
    controllers.delete(task.taskId);
  }
}

port.on("message", (message: ToWorker) => {
  if (message.type === "abort") controllers.get(message.taskId)?.abort();
  else void runTask(message);
});
