import { EventEmitter } from "node:events";

// In-process signal from job creation to the runner, so a job starts without waiting for the next tick.
// Only an optimisation: runners in other processes still find the job on their next poll.
const state = globalThis as unknown as { __jobEvents?: EventEmitter };
if (!state.__jobEvents) state.__jobEvents = new EventEmitter().setMaxListeners(50);
export const jobEvents: EventEmitter = state.__jobEvents;
