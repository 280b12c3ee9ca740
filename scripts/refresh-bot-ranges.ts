// Downloads the IP ranges crawler operators publish and rewrites lib/tracking/catalog/data/<source>.json.
//
//   npx tsx scripts/refresh-bot-ranges.ts                  # every source
//   npx tsx scripts/refresh-bot-ranges.ts --only openai-gptbot,bing-bingbot
//   npx tsx scripts/refresh-bot-ranges.ts --list           # show the sources and exit
//
// A source that fails (network, HTTP error, not JSON, no usable prefix) keeps its previous file; the script
// then exits with status 1 so CI notices. Rebuild after refreshing: the files are bundled at build time.
import path from "node:path";
import { readBotRangesConfig } from "@/lib/providers/bot-ranges/published-ranges";
import { refreshRangeFiles } from "@/lib/tracking/catalog/ip-ranges/refresh";
import { RANGE_SOURCES } from "@/lib/tracking/catalog/ip-ranges/sources";

function readOption(args: string[], name: string): string | undefined {
  const index = args.indexOf(name);
  if (index !== -1) return args[index + 1];
  return args.find((a) => a.startsWith(`${name}=`))?.slice(name.length + 1);
}

async function main(): Promise<number> {
  const args = process.argv.slice(2);
  if (args.includes("--list")) {
    for (const s of RANGE_SOURCES) console.log(`${s.key.padEnd(40)} ${s.url}  (${s.covers})`);
    return 0;
  }

  const only = readOption(args, "--only")
    ?.split(",")
    .map((k) => k.trim())
    .filter(Boolean);
  const unknown = only?.filter((k) => !RANGE_SOURCES.some((s) => s.key === k)) ?? [];
  if (unknown.length > 0) {
    console.error(`unknown source(s): ${unknown.join(", ")}; see --list`);
    return 2;
  }
  const sources = only ? RANGE_SOURCES.filter((s) => only.includes(s.key)) : RANGE_SOURCES;
  const dataDir = readOption(args, "--data-dir") ?? path.join(process.cwd(), "lib/tracking/catalog/data");

  const outcomes = await refreshRangeFiles({ dataDir, sources, config: readBotRangesConfig(process.env) });
  let failed = 0;
  for (const outcome of outcomes) {
    if (outcome.ok) {
      const skipped = outcome.rejected.length > 0 ? `, ${outcome.rejected.length} entries skipped` : "";
      console.log(
        `ok    ${outcome.key}: ${outcome.prefixes} prefixes (created ${outcome.creationTime ?? "?"})${skipped}`,
      );
    } else {
      failed++;
      console.error(`FAIL  ${outcome.key}: ${outcome.error} (previous file kept)`);
    }
  }
  return failed > 0 ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
