import { EventEmitter } from "node:events";

// In-process signal from job creation to the runner, so a job starts without waiting for the next tick.
// Runners in other processes hear of it on Postgres through NOTIFY jobs_created (sent by the creating
// statement, lib/jobs/create.ts), and otherwise find the job on their next poll.
const state = globalThis as unknown as { __jobEvents?: EventEmitter };
if (!state.__jobEvents) state.__jobEvents = new EventEmitter().setMaxListeners(50);
export const jobEvents: EventEmitter = state.__jobEvents;

/** The Postgres channel a job's creation is announced on. */
export const JOBS_CHANNEL = "jobs_created";
