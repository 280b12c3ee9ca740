import { eq } from "drizzle-orm";
import { findRegistrableDomain } from "@/lib/ai-visibility/domains";
import { type DbOrTx, getDb } from "@/lib/db/client";
import { domains } from "@/lib/db/schema";
import {
  DataForSeoError,
  type Env,
  fetchGoogleSerp,
  readDataForSeoConfig,
  type SerpPage,
} from "@/lib/providers/dataforseo";
import { toKnownToolError } from "../map-tool-error";
import type { ToolRunner } from "../types";
import { SERP_NOT_CONFIGURED } from "./availability";
import type { SerpInput, SerpResult } from "./schema";

const regionNames = new Intl.DisplayNames(["en"], { type: "region" });

/** DataForSEO names countries in English ("United Kingdom"); the ISO code is what customers send. */
export function countryLocationName(country: string): string {
  return regionNames.of(country.toUpperCase()) ?? country;
}

/** The account's registered domains and the request's own, reduced to registrable domains, deduplicated. */
export async function domainsToLookFor(
  db: DbOrTx,
  accountId: string,
  extra: string[] = [],
): Promise<string[]> {
  const rows = await db
    .select({ hostname: domains.hostname })
    .from(domains)
    .where(eq(domains.accountId, accountId));
  const all = [...rows.map((r) => r.hostname), ...extra].map((d) => findRegistrableDomain(d) ?? d);
  return [...new Set(all)].sort();
}

/** The SERP with every result and cited source marked when it is on one of `yours` (subdomains count). */
export function markYourDomains(input: SerpInput, page: SerpPage, yours: string[]): SerpResult {
  const mine = (urlOrHost: string) => {
    const reg = findRegistrableDomain(urlOrHost);
    return reg !== null && yours.includes(reg) ? reg : null;
  };
  const organic = page.organic.map((o) => ({ ...o, isYours: mine(o.url) !== null }));
  const sources = (page.aiOverview?.sources ?? []).map((s) => ({ ...s, isYours: mine(s.url) !== null }));
  return {
    keyword: input.keyword,
    country: input.country,
    language: input.language,
    device: input.device,
    checkedAt: page.checkedAt,
    totalResults: page.totalResults,
    features: page.features,
    organic,
    aiOverview: page.aiOverview
      ? {
          position: page.aiOverview.position,
          text: page.aiOverview.text,
          sources,
          citesYou: sources.some((s) => s.isYours),
        }
      : null,
    yourDomains: yours,
    you: yours.map((domain) => {
      const positions = organic.filter((o) => mine(o.url) === domain).map((o) => o.position);
      return {
        domain,
        bestPosition: positions.length > 0 ? Math.min(...positions) : null,
        citedInAiOverview: sources.some((s) => mine(s.url) === domain),
      };
    }),
    source: "dataforseo",
  };
}

export async function runSerp(
  input: SerpInput,
  ctx: { db: DbOrTx; accountId: string; env: Env; signal: AbortSignal; providerFetch?: typeof fetch },
): Promise<SerpResult> {
  const config = readDataForSeoConfig(ctx.env);
  if (!config) throw new DataForSeoError("DATAFORSEO_NOT_CONFIGURED", SERP_NOT_CONFIGURED);
  const yours = await domainsToLookFor(ctx.db, ctx.accountId, input.domains);
  const { page } = await fetchGoogleSerp(
    config,
    {
      keyword: input.keyword,
      locationName: countryLocationName(input.country),
      languageCode: input.language,
      device: input.device,
      depth: input.depth,
    },
    { signal: ctx.signal, fetch: ctx.providerFetch },
  );
  return markYourDomains(input, page, yours);
}

export const runner: ToolRunner<SerpInput, SerpResult> = {
  async run(input, ctx) {
    // A "main" tool gets the runner's database; the process's own is the fallback outside the runner.
    const db = ctx.db ?? (await getDb());
    return runSerp(input, { db, accountId: ctx.accountId, env: ctx.env, signal: ctx.signal }).catch(
      (err: unknown) => {
        if (ctx.signal.aborted) throw err;
        throw toKnownToolError(err);
      },
    );
  },
};
