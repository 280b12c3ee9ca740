/** Rows of a raw `db.execute`: postgres.js returns an array, PGlite returns `{ rows }`. */
export function rowsOf<T>(result: unknown): T[] {
  if (Array.isArray(result)) return result as T[];
  return ((result as { rows?: T[] }).rows ?? []) as T[];
}

/**
 * Whether queries run on this thread (PGlite in this process) rather than in a server: long work on such a
 * database must leave the event loop a turn between statements, and keep each statement short.
 */
export function runsOnThisThread(db: unknown): boolean {
  const client = (db as { $client?: unknown }).$client;
  return typeof client === "object" && client !== null && "waitReady" in client;
}
