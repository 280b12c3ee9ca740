// The monitors bench's fake engines in a thread of their own: the fakes' HTTP work (two hops per request) does not
// take the event loop of the runners being measured. Started by bench/monitors.ts; answers "counters" and "close".
import { parentPort, workerData } from "node:worker_threads";
import { brandAnswers, type MonitorEnginesOptions, startMonitorEngines } from "@/test/fakes/monitor-engines";

export interface EnginesThreadData {
  answer: Parameters<typeof brandAnswers>[0];
  options: Omit<MonitorEnginesOptions, "answer">;
}

const data = workerData as EnginesThreadData;
const fakes = await startMonitorEngines({ ...data.options, answer: brandAnswers(data.answer) });
parentPort!.postMessage({ type: "ready", env: fakes.env, routes: fakes.routes });
parentPort!.on("message", async (message: string) => {
  if (message === "counters") parentPort!.postMessage({ type: "counters", counters: fakes.counters });
  if (message === "close") {
    await fakes.close();
    parentPort!.postMessage({ type: "closed" });
    parentPort!.close();
  }
});
