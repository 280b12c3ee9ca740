// The Node flags of the serving process (`npm start`, the e2e server and the benchmarks start it alike).
//
// SERVER_SEMI_SPACE_MB (default 4): V8 sizes its young generation for the allocation rate: at a few thousand API
// requests per second it grows it to 16 MB per semi-space and keeps it, most of the serving process's growth
// under load. Capping it at 4 MB kept RSS under 400 MB in `npm run bench:api` (494 → 372 MB) for about 10% of
// the throughput.
//
// SERVER_MAX_OLD_SPACE_MB (default 256): the main thread's old generation. V8 sizes its growth steps from this
// limit: with its default (about 2 GB here) the heap grew to 170–210 MB during tracking ingest (batches of 1000
// events promote their in-flight rows) and RSS reached 410–485 MB; at 256 MB the heap stays near 110 MB and RSS
// near 270 MB at the same throughput. The server's own live heap is about 80–100 MB; tool workers have their own
// limit (TOOL_WORKER_MEMORY_MB), not this one.
//
// Either set to 0 leaves V8's default.

function megabytes(name: string, raw: string | undefined, fallback: number): number {
  const mb = raw === undefined || raw === "" ? fallback : Number(raw);
  if (!Number.isFinite(mb) || mb < 0) throw new Error(`${name} must be a number of MB, got "${raw}"`);
  return Math.round(mb);
}

/** The flags to start server.ts with, before `--import tsx`. */
export function serverNodeFlags(env: Record<string, string | undefined> = process.env): string[] {
  const semi = megabytes("SERVER_SEMI_SPACE_MB", env.SERVER_SEMI_SPACE_MB, 4);
  const old = megabytes("SERVER_MAX_OLD_SPACE_MB", env.SERVER_MAX_OLD_SPACE_MB, 256);
  if (old > 0 && old < 128)
    throw new Error(`SERVER_MAX_OLD_SPACE_MB must be at least 128 (or 0), got "${old}"`);
  return [
    ...(semi > 0 ? [`--max-semi-space-size=${semi}`] : []),
    ...(old > 0 ? [`--max-old-space-size=${old}`] : []),
  ];
}
