import path from "node:path";
import type { Worker } from "node:worker_threads";
import type { Env } from "@/lib/tools/types";
import { deserializeError, type FromWorker, type ToWorker } from "./worker-protocol";

/** Each tool thread's young generation: 12 MB, three 4 MB semi-spaces (V8 sizes it from the semi-space). */
const WORKER_YOUNG_MB = 12;

export interface ToolPoolOptions {
  /** The V8 heap limit of each worker (`resourceLimits.maxOldGenerationSizeMb`). */
  memoryMb: number;
  /** How long an aborted tool may take to clean up before its thread is terminated. */
  graceMs: number;
  /** How long a worker may take to start a task (thread start, compiling and importing the tool). */
  startupMs?: number;
  /** How long a warm worker stays idle before it ends (each holds its own heap, 40–60 MB); 0: kept. */
  idleMs?: number;
}

export interface ToolTask {
  file: string;
  input: unknown;
  jobId: string;
  accountId: string;
  env: Env;
}

export interface RunningTask {
  /** The tool's result, or its error; a WorkerLimitError at the time limit or the memory limit. */
  outcome: Promise<unknown>;
  /** Settles once the worker is free again: it answered, or it was terminated and will be replaced. */
  released: Promise<void>;
}

/** A tool stopped by the pool rather than by its own failure. */
export class WorkerLimitError extends Error {
  constructor(readonly limit: "time" | "memory") {
    super(limit === "time" ? "the tool passed its time limit" : "the tool passed its memory limit");
    this.name = "WorkerLimitError";
  }
}

// The worker entry is read from disk, not bundled: `next start` serves a bundle, the tools run from
// their sources (the entry compiles them), and the project root is the working directory of every command.
const WORKER_ENTRY = path.join(process.cwd(), "lib", "jobs", "tool-worker.mjs");
// Turbopack follows `new Worker(…)` of an imported node:worker_threads into the server bundle (and the
// entry's tsx into esbuild's binary); the module taken from the runtime keeps the entry a file on disk.
const threads = process.getBuiltinModule("node:worker_threads");

interface Slot {
  worker: Worker;
  busy: boolean;
  idleTimer?: NodeJS.Timeout;
}

/**
 * Worker threads for tool runs: one task per worker at a time, each under a heap limit and a hard
 * time limit. At the time limit the task's signal is aborted (the tool may clean up, e.g. close its
 * browser); a worker still busy after the grace is terminated and a fresh one takes its place.
 */
export class ToolWorkerPool {
  private readonly idle: Slot[] = [];
  private nextTaskId = 1;
  private size = 1;
  /** Counters for tests and benchmarks: threads started, and threads terminated while busy. */
  readonly stats = { spawned: 0, killed: 0 };

  constructor(readonly options: ToolPoolOptions) {}

  /** Keeps up to `n` idle workers warm (the largest runner concurrency using this pool). */
  /** Warm workers waiting for a task. */
  get idleCount(): number {
    return this.idle.length;
  }

  reserve(n: number): void {
    this.size = Math.max(this.size, n);
  }

  run(task: ToolTask, opts: { timeoutMs: number; signal: AbortSignal }): RunningTask {
    const slot = this.acquire();
    const { worker } = slot;
    const taskId = this.nextTaskId++;
    let settle!: { resolve: (v: unknown) => void; reject: (e: unknown) => void };
    const outcome = new Promise<unknown>((resolve, reject) => {
      settle = { resolve, reject };
    });
    let settled = false;
    const finish = (fn: () => void) => {
      if (settled) return;
      settled = true;
      fn();
    };
    let release!: () => void;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });

    let grace: NodeJS.Timeout | undefined;
    const stop = () => {
      if (grace) return;
      worker.postMessage({ type: "abort", taskId } satisfies ToWorker);
      grace = setTimeout(() => void this.kill(worker), this.options.graceMs);
    };
    const onTimeLimit = () => {
      finish(() => settle.reject(new WorkerLimitError("time")));
      stop();
    };
    // Starting covers a cold thread compiling the tool; the tool's own clock starts when it runs.
    const startupMs = this.options.startupMs ?? 30_000;
    let timer = setTimeout(() => {
      finish(() => settle.reject(new Error(`the tool worker did not start within ${startupMs} ms`)));
      void this.kill(worker);
    }, startupMs);

    const cleanup = () => {
      clearTimeout(timer);
      clearTimeout(grace);
      opts.signal.removeEventListener("abort", stop);
      worker.off("message", onMessage);
      worker.off("error", onError);
      worker.off("exit", onExit);
    };
    const onMessage = (message: FromWorker) => {
      if (message.taskId !== taskId) return;
      if (message.type === "started") {
        clearTimeout(timer);
        timer = setTimeout(onTimeLimit, opts.timeoutMs);
        return;
      }
      finish(() =>
        message.ok ? settle.resolve(message.result) : settle.reject(deserializeError(message.error)),
      );
      cleanup();
      this.putBack(slot);
      release();
    };
    const onError = (err: Error & { code?: string }) => {
      finish(() =>
        settle.reject(err.code === "ERR_WORKER_OUT_OF_MEMORY" ? new WorkerLimitError("memory") : err),
      );
    };
    const onExit = (code: number) => {
      finish(() => settle.reject(new Error(`the tool worker exited with code ${code}`)));
      cleanup();
      release();
    };
    worker.on("message", onMessage);
    worker.on("error", onError);
    worker.on("exit", onExit);
    opts.signal.addEventListener("abort", stop);
    if (opts.signal.aborted) stop();
    worker.postMessage({ type: "run", taskId, ...task } satisfies ToWorker);
    return { outcome, released };
  }

  /** Terminates the idle workers; busy ones end with their tasks. */
  async close(): Promise<void> {
    const idle = this.idle.splice(0);
    await Promise.all(idle.map((s) => s.worker.terminate()));
  }

  private acquire(): Slot {
    const slot = this.idle.pop() ?? this.spawn();
    clearTimeout(slot.idleTimer);
    slot.busy = true;
    // A running task keeps the process alive; idle workers never do.
    slot.worker.ref();
    return slot;
  }

  private putBack(slot: Slot): void {
    slot.busy = false;
    slot.worker.unref();
    if (this.idle.length >= this.size) {
      void slot.worker.terminate();
      return;
    }
    this.idle.push(slot);
    // A warm thread saves the next job its start (about a second); one unused for a while gives its heap back.
    const idleMs = this.options.idleMs ?? 0;
    if (idleMs > 0) {
      slot.idleTimer = setTimeout(() => {
        const at = this.idle.indexOf(slot);
        if (at < 0) return;
        this.idle.splice(at, 1);
        void slot.worker.terminate();
      }, idleMs);
      slot.idleTimer.unref();
    }
  }

  private spawn(): Slot {
    const worker = new threads.Worker(WORKER_ENTRY, {
      // The tools read ALLOW_PRIVATE_TARGETS and FETCH_USER_AGENT at call time, as in the main thread.
      env: threads.SHARE_ENV,
      execArgv: [],
      // The young generation as small as before the serving thread's was raised (SERVER_SEMI_SPACE_MB): a tool
      // allocates at a fraction of the ingest path's rate, and eight warm threads would each keep the larger one.
      resourceLimits: {
        maxOldGenerationSizeMb: this.options.memoryMb,
        maxYoungGenerationSizeMb: WORKER_YOUNG_MB,
      },
    });
    this.stats.spawned++;
    const slot: Slot = { worker, busy: false };
    // An idle worker that fails (a stray callback throwing after its task) is dropped and logged.
    worker.on("error", (err) => {
      if (!slot.busy) console.error("[tool worker] failed while idle", err);
    });
    worker.on("exit", () => {
      const at = this.idle.indexOf(slot);
      if (at >= 0) this.idle.splice(at, 1);
    });
    return slot;
  }

  private async kill(worker: Worker): Promise<void> {
    this.stats.killed++;
    await worker.terminate();
  }
}

const pools = new Map<string, ToolWorkerPool>();

/** One pool per process and limits, shared by the runners of the process (tests start many). */
export function toolPoolFor(options: ToolPoolOptions): ToolWorkerPool {
  const key = `${options.memoryMb}:${options.graceMs}:${options.startupMs ?? ""}:${options.idleMs ?? ""}`;
  let pool = pools.get(key);
  if (!pool) {
    pool = new ToolWorkerPool(options);
    pools.set(key, pool);
  }
  return pool;
}
