import { existsSync } from "node:fs";
import { inPostgresYears, isCalendarDay } from "@/lib/calendar";
import type { Db } from "@/lib/db/client";
import { WEBGRAPH_LEVELS, type WebgraphLevel } from "@/lib/db/schema";
import { importWebgraph } from "./import-webgraph";

export const IMPORT_WEBGRAPH_USAGE = `  import-webgraph --release <name> --date <YYYY-MM-DD> --level host|domain --vertices <file> --edges <file> --ranks <file>
      Imports a Common Crawl web graph release (files gzipped or plain); re-run the same command to resume.`;

export const IMPORT_WEBGRAPH_OPTIONS = {
  release: { type: "string" },
  date: { type: "string" },
  level: { type: "string" },
  vertices: { type: "string" },
  edges: { type: "string" },
  ranks: { type: "string" },
} as const;

/** The admin command: checks its options, then imports with progress lines on stderr. */
export async function runImportWebgraphCommand(
  db: Db,
  values: Record<string, string | undefined>,
  usageError: (message: string) => Error,
) {
  const need = (name: string) => {
    const value = values[name];
    if (!value) throw usageError(`--${name} is required`);
    return value;
  };
  const level = need("level");
  if (!(WEBGRAPH_LEVELS as readonly string[]).includes(level))
    throw usageError("--level must be host or domain");
  const date = need("date");
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date) || !isCalendarDay(date) || !inPostgresYears(new Date(date))) {
    throw usageError("--date must be a date, YYYY-MM-DD");
  }
  const files = { verticesFile: need("vertices"), edgesFile: need("edges"), ranksFile: need("ranks") };
  for (const file of Object.values(files)) if (!existsSync(file)) throw usageError(`no such file: ${file}`);
  const result = await importWebgraph(db, {
    snapshot: { name: need("release"), takenOn: date },
    level: level as WebgraphLevel,
    ...files,
    onProgress: (p) => console.error(JSON.stringify({ progress: p })),
  });
  const edgesPerSecond =
    result.elapsedMs > 0 ? Math.round((result.linesRead.edges * 1000) / result.elapsedMs) : null;
  return { ...result, edgesPerSecond };
}
