import { sql } from "drizzle-orm";
import type { DbOrTx } from "@/lib/db/client";
import {
  DATAFORSEO_ENV,
  DataForSeoError,
  type Env,
  fetchBacklinkProfile,
  fetchBulkDomainFigures,
  type ProviderBacklinks,
  readDataForSeoConfig,
} from "@/lib/providers/dataforseo";
import type {
  BacklinksOverviewResult,
  DomainAuthorityInput,
  DomainAuthorityResult,
} from "./backlinks-schema";
import { rowsOf } from "./import-webgraph";
import { backlinksOverview, domainAuthority } from "./queries";

export type Availability = { ok: true } | { ok: false; reason: string };

export interface BacklinksContext {
  db: DbOrTx;
  signal: AbortSignal;
  env?: Env;
  /** Outbound HTTP to DataForSEO; default the global fetch. */
  providerFetch?: typeof fetch;
}

export async function hasWebgraphSnapshot(db: DbOrTx): Promise<boolean> {
  const rows = rowsOf<{ one: number }>(
    await db.execute(sql`select 1 as one from webgraph_snapshots where status = 'ready' limit 1`),
  );
  return rows.length > 0;
}

const UNAVAILABLE = `No backlink data on this server: import a Common Crawl web graph (npm run admin -- import-webgraph …) or set ${DATAFORSEO_ENV.join(" and ")} for DataForSEO Backlinks.`;

/** Checked before any charge, for /backlinks-overview and /domain-authority alike. */
export async function backlinksAvailability(db: DbOrTx, env: Env = process.env): Promise<Availability> {
  if (readDataForSeoConfig(env) || (await hasWebgraphSnapshot(db))) return { ok: true };
  return { ok: false, reason: UNAVAILABLE };
}

/**
 * /backlinks-overview: the embedded web graph's figures and, when configured, DataForSEO's backlink profile.
 * A provider failure fails the job unless the web graph answered, in which case it becomes a warning.
 */
export async function runBacklinksOverview(
  input: { target: string; includeHistory?: boolean },
  ctx: BacklinksContext,
): Promise<BacklinksOverviewResult> {
  const env = ctx.env ?? process.env;
  const config = readDataForSeoConfig(env);
  const webgraph = await backlinksOverview(ctx.db, input);
  if (!webgraph && !config) throw new DataForSeoError("DATAFORSEO_NOT_CONFIGURED", UNAVAILABLE);
  const warnings: string[] = [];
  let dataforseo: ProviderBacklinks | null = null;
  if (config) {
    try {
      dataforseo = (
        await fetchBacklinkProfile(config, input.target, { signal: ctx.signal, fetch: ctx.providerFetch })
      ).profile;
    } catch (err) {
      if (!webgraph || !(err instanceof DataForSeoError)) throw err;
      warnings.push(`DataForSEO Backlinks did not answer (${err.code}): ${err.message}`);
    }
  }
  if (webgraph && !webgraph.found) {
    warnings.push(
      `${input.target} is not in the web graph snapshot ${webgraph.snapshot}: no site links to it there.`,
    );
  }
  return {
    target: input.target,
    source: webgraph && dataforseo ? "both" : webgraph ? "webgraph" : "dataforseo",
    webgraph,
    dataforseo,
    warnings,
  };
}

/** POST /api/v1/domain-authority: web graph authority per domain, with DataForSEO's figures when configured. */
export async function runDomainAuthority(
  input: DomainAuthorityInput,
  ctx: BacklinksContext,
): Promise<DomainAuthorityResult> {
  const env = ctx.env ?? process.env;
  const config = readDataForSeoConfig(env);
  const graphAvailable = await hasWebgraphSnapshot(ctx.db);
  if (!graphAvailable && !config) throw new DataForSeoError("DATAFORSEO_NOT_CONFIGURED", UNAVAILABLE);
  const domains = [...new Set(input.domains)];
  const graph = await domainAuthority(ctx.db, { domains });
  const provider = config
    ? new Map(
        (
          await fetchBulkDomainFigures(config, domains, { signal: ctx.signal, fetch: ctx.providerFetch })
        ).figures.map((f) => [
          f.target,
          {
            rank: f.rank,
            referringDomains: f.referringDomains,
            referringMainDomains: f.referringMainDomains,
          },
        ]),
      )
    : null;
  return {
    source: graphAvailable && provider ? "both" : graphAvailable ? "webgraph" : "dataforseo",
    snapshot: graph.snapshot,
    domains: graph.domains.map((d) => ({
      ...d,
      referringDomains: graphAvailable ? d.referringDomains : null,
      dataforseo: provider?.get(d.domain) ?? null,
    })),
  };
}
