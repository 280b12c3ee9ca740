// The Node flags of the serving process (`npm start`, the e2e server and the benchmarks start it alike). Each
// trades a little memory for less time in garbage collection, within the serving process's memory budget;
// docs/benchmarks.md has the measurements behind the defaults. Each set to 0 leaves V8's default.
//
// SERVER_SEMI_SPACE_MB (default 16): the young generation's semi-space. Tracking ingest keeps several batches of
// events in flight; with a small young generation a scavenge runs about every batch and copies the batches still in
// flight, promoting them into the old generation and feeding its full collections. Tool threads keep a smaller
// young generation of their own (lib/jobs/tool-pool.ts).
//
// SERVER_MAX_OLD_SPACE_MB (default 256, at least 128): the main thread's old generation. V8 sizes its growth steps
// from this limit: with its default (a large share of the machine's memory) the heap grows far past the server's
// live data under ingest, and RSS with it. Tool workers have their own limit (TOOL_WORKER_MEMORY_MB), not this one.
//
// SERVER_HEAP_GROWING_PERCENT (default 75): how far the old generation may grow past what the last full collection
// kept before the next one starts. Under a small limit V8 picks a low factor, and the server's live heap would be
// marked whole about once a second during ingest; a higher factor means fewer full collections for some memory.
//
// MALLOC_ARENA_MAX (default 2; set it yourself to override): how many allocation arenas glibc's malloc keeps. By
// default it makes up to eight per core as threads allocate (tool threads, libuv's pool), and memory freed in an
// arena stays with the process after its thread ends; two arenas keep the same throughput with less resident memory.

function megabytes(name: string, raw: string | undefined, fallback: number): number {
  const mb = raw === undefined || raw === "" ? fallback : Number(raw);
  if (!Number.isFinite(mb) || mb < 0) throw new Error(`${name} must be a number of MB, got "${raw}"`);
  return Math.round(mb);
}

/** The flags to start server.ts with, before `--import tsx`. */
export function serverNodeFlags(env: Record<string, string | undefined> = process.env): string[] {
  const semi = megabytes("SERVER_SEMI_SPACE_MB", env.SERVER_SEMI_SPACE_MB, 16);
  const old = megabytes("SERVER_MAX_OLD_SPACE_MB", env.SERVER_MAX_OLD_SPACE_MB, 256);
  if (old > 0 && old < 128)
    throw new Error(`SERVER_MAX_OLD_SPACE_MB must be at least 128 (or 0), got "${old}"`);
  const growing = env.SERVER_HEAP_GROWING_PERCENT;
  const percent = growing === undefined || growing === "" ? 75 : Number(growing);
  if (!Number.isInteger(percent) || percent < 0 || percent > 1000)
    throw new Error(`SERVER_HEAP_GROWING_PERCENT must be a whole number from 0 to 1000, got "${growing}"`);
  return [
    ...(semi > 0 ? [`--max-semi-space-size=${semi}`] : []),
    ...(old > 0 ? [`--max-old-space-size=${old}`] : []),
    ...(percent > 0 ? [`--heap-growing-percent=${percent}`] : []),
  ];
}

/** The environment variables to start server.ts with besides the caller's own (read by the C library at start). */
export function serverProcessEnv(
  env: Record<string, string | undefined> = process.env,
): Record<string, string> {
  return env.MALLOC_ARENA_MAX === undefined || env.MALLOC_ARENA_MAX === "" ? { MALLOC_ARENA_MAX: "2" } : {};
}
