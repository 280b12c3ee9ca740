// The Node flags of the serving process (`npm start`, the e2e server and the benchmarks start it alike).
//
// SERVER_SEMI_SPACE_MB (default 16): the young generation's semi-space. Tracking ingest keeps four batches of 1000
// events in flight: at 4 MB per semi-space a scavenge ran about every batch, each copying the batches still in
// flight (about a quarter of what it collected) and promoting them, which fed the old generation's collections:
// 1,580-1,770 ms of collections in the 240 HTTP batches of `npm run bench:tracking` (27 Nov 2026), against 1,020 ms
// at 16 MB and 730 ms at 32 MB. The size is also memory: after `npm run bench:api` RSS was 248 MB at 4, 268 MB at
// 16, 300 MB at 32, and after `npm run bench:jobs` once its tool threads idled out 342, 361 and 392 MB (goal
// < 400 MB).
// Tool threads keep a 12 MB young generation of their own (lib/jobs/tool-pool.ts).
//
// SERVER_MAX_OLD_SPACE_MB (default 256): the main thread's old generation. V8 sizes its growth steps from this
// limit: with its default (about 2 GB here) the heap grew to 170–210 MB during tracking ingest (batches of 1000
// events promote their in-flight rows) and RSS reached 410–485 MB; at 256 MB the heap stays near 110 MB and RSS
// near 270 MB at the same throughput. The server's own live heap is about 80–100 MB; tool workers have their own
// limit (TOOL_WORKER_MEMORY_MB), not this one.
//
// SERVER_HEAP_GROWING_PERCENT (default 75): how far the old generation may grow past what the last full
// collection kept before the next one starts. With a 256 MB limit V8 picks 30% (its factor for small heaps): the
// server's 80 MB live heap was marked whole every 25 MB of promotions, about once a second during tracking ingest.
// In the 480 HTTP batches of `npm run bench:tracking` (27 Nov 2026): 28 full collections at V8's choice, 20 at 50%,
// 10 at 75%, 9 at 100%; the server's CPU per batch of 1000 events 21-23, 18, 14-16 and 14-16 ms. The price is
// memory: RSS after `npm run bench:jobs` once its tool threads idled out 346, 342, 357 and 413 MB (goal < 400 MB),
// after the tracking ingest 292-305, 300, 307 and 322 MB.
//
// Each set to 0 leaves V8's default.
//
// MALLOC_ARENA_MAX (default 2; set it yourself to override): how many allocation arenas glibc's malloc keeps. By
// default it makes up to eight per core as threads allocate (tool threads, libuv's pool), and memory freed in an
// arena stays with the process. RSS after `npm run bench:jobs` once its tool threads idled out (28 Nov 2026, 2 cores):
// 331, 343 and 342 MB at 2 against 360, 355 and 357 MB at glibc's default, at the same throughput (1,998 against 2,015
// creations/s) and the same tracking ingest (server CPU 7.4-9.2 against 7.2-8.6 ms a batch of 1000 events).

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
