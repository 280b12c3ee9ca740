// Downloads the public AI-agent list (ai.robots.txt, MIT) and rewrites
// lib/tracking/catalog/data/ai-robots-txt.json. Rebuild afterwards: the file is bundled at build time.
//
//   npx tsx scripts/refresh-ai-agents.ts [--url <raw robots.json URL>] [--data-dir <dir>]
//
// On any failure (network, HTTP error, not JSON, a list that looks truncated) the previous file is kept and
// the script exits with status 1.
import path from "node:path";
import { AI_AGENT_LIST_URL, refreshAgentList } from "@/lib/tracking/catalog/ai-agents-refresh";

function readOption(args: string[], name: string): string | undefined {
  const index = args.indexOf(name);
  if (index !== -1) return args[index + 1];
  return args.find((a) => a.startsWith(`${name}=`))?.slice(name.length + 1);
}

async function main(): Promise<number> {
  const args = process.argv.slice(2);
  const url = readOption(args, "--url") ?? AI_AGENT_LIST_URL;
  const dataDir = readOption(args, "--data-dir") ?? path.join(process.cwd(), "lib/tracking/catalog/data");
  try {
    const { agents, file } = await refreshAgentList({ dataDir, url });
    console.log(`ok    ${agents} agents from ${url} -> ${file}`);
    return 0;
  } catch (error) {
    console.error(
      `FAIL  ${url}: ${error instanceof Error ? error.message : String(error)} (previous file kept)`,
    );
    return 1;
  }
}

main().then((code) => process.exit(code));
