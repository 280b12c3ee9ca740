// The Node flags of the serving process (`npm start`, the e2e server and the benchmarks start it alike).
// V8 sizes its young generation for the allocation rate: at a few thousand API requests per second it grows
// it to 16 MB per semi-space and keeps it, most of the serving process's growth under load. Capping it at
// 4 MB kept RSS under 400 MB in `npm run bench:api` (494 → 372 MB) for about 10% of the throughput.
// SERVER_SEMI_SPACE_MB overrides it (0 leaves V8's default).

/** The flags to start server.ts with, before `--import tsx`. */
export function serverNodeFlags(env: NodeJS.ProcessEnv = process.env): string[] {
  const raw = env.SERVER_SEMI_SPACE_MB;
  const mb = raw === undefined || raw === "" ? 4 : Number(raw);
  if (!Number.isFinite(mb) || mb < 0)
    throw new Error(`SERVER_SEMI_SPACE_MB must be a number of MB, got "${raw}"`);
  return mb > 0 ? [`--max-semi-space-size=${Math.round(mb)}`] : [];
}
