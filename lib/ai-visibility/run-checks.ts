import { ToolError } from "@/lib/errors";
import type { GuardedFetch } from "@/lib/fetch/types";
import { ENGINE_ADAPTERS } from "@/lib/providers/ask-engine";
import { EngineError } from "@/lib/providers/engine-retry";
import {
  ENGINE_NAMES,
  type EngineName,
  type Env,
  type RetryPolicy,
  resolveProvider,
} from "@/lib/providers/engine-types";
import { ENGINE_CONFIGS } from "@/lib/providers/engines";
import { type AnswerAnalysis, analyzeAnswer } from "./analyze-answer";
import { findDomainLabel, findRegistrableDomain } from "./domains";
import { resolveSources } from "./resolve-sources";
import type {
  AiCitationCheckResult,
  BrandVisibilityResult,
  EngineResult,
  EngineUsageRecord,
} from "./schemas";
import { summarize } from "./score";
import { describeSentimentMethod, judgeSentences } from "./sentiment-judge";
import { readSiteName } from "./site-name";

export interface CheckContext {
  /** Aborted at the job's time limit; every engine call and fetch stops with it. */
  signal: AbortSignal;
  /** The guarded fetcher: home page name, Gemini redirect links. */
  fetch: GuardedFetch;
  /** Default process.env: provider keys, base URLs and models. */
  env?: Env;
  /** Epoch ms by which the job must end; retries do not start waits that would pass it. */
  deadline?: number;
  retry?: Partial<RetryPolicy>;
}

/**
 * An engine entry as the run produces it: the customer's fields plus the operator-only token usage of the
 * answer and, when a model judged its tone, of that judgement.
 */
type EngineRun = EngineResult & { usage: EngineUsageRecord; sentimentUsage?: EngineUsageRecord };
export type AiCitationCheckRun = Omit<AiCitationCheckResult, "results"> & { results: EngineRun[] };
export type BrandVisibilityRun = BrandVisibilityResult & {
  usage: EngineUsageRecord;
  sentimentUsage?: EngineUsageRecord;
};

export interface AiCitationCheckInput {
  prompt: string;
  domain: string;
  engines?: readonly EngineName[];
  competitors?: readonly string[];
}

export interface BrandVisibilityInput {
  prompt: string;
  domain: string;
  engine?: EngineName;
  competitors?: readonly string[];
}

/**
 * The AI citation check: asks every engine in parallel, then reports per engine whether it cites and mentions
 * the domain, where and in what tone, and how the competitors fare. An engine that fails after its retries gets
 * `error` in its entry (its credits are refunded by the caller, see failedEngines); when every engine fails the
 * check throws ENGINES_FAILED so that the job fails and is refunded in full.
 */
export async function runCitationCheck(
  input: AiCitationCheckInput,
  ctx: CheckContext,
): Promise<AiCitationCheckRun> {
  const engines = input.engines?.length ? [...input.engines] : [...ENGINE_NAMES];
  const checked = await checkEngines(input, engines, ctx);
  const competitorCitations = new Map<string, EngineName[]>(checked.competitors.map((c) => [c, []]));
  for (const run of checked.runs) {
    for (const c of run.analysis?.competitors ?? [])
      if (c.cited) competitorCitations.get(c.domain)?.push(run.engine);
  }
  const results = checked.runs.map((r) => r.entry);
  return {
    domain: input.domain,
    summary: summarize(results, competitorCitations),
    results,
    brandNames: checked.brandNames,
    sentimentMethod: describeSentimentMethod(results),
  };
}

/** Brand visibility on one engine (ChatGPT unless told): the entry plus every brand named and the competitors. */
export async function runBrandVisibility(
  input: BrandVisibilityInput,
  ctx: CheckContext,
): Promise<BrandVisibilityRun> {
  const engine = input.engine ?? "ChatGPT";
  const checked = await checkEngines(input, [engine], ctx);
  const run = checked.runs[0]!;
  return {
    ...run.entry,
    domain: input.domain,
    mentions: run.analysis?.mentions ?? [],
    competitors:
      run.analysis?.competitors ??
      checked.competitors.map((domain) => ({ domain, mentioned: false, mentionPosition: 0, cited: false })),
    brandNames: checked.brandNames,
    sentimentMethod: describeSentimentMethod([run.entry]),
  };
}

/** The engines whose entry carries an error: each is refunded its share of the charge. */
export function failedEngines(result: { results: readonly EngineResult[] } | EngineResult): EngineName[] {
  const entries = "results" in result ? result.results : [result];
  return entries.filter((e) => e.error).map((e) => e.engine);
}

/** Splits the operator-only usage from a run, leaving exactly the customer's result. */
export function separateUsage(run: AiCitationCheckRun): {
  result: AiCitationCheckResult;
  usage: EngineUsageRecord[];
};
export function separateUsage(run: BrandVisibilityRun): {
  result: BrandVisibilityResult;
  usage: EngineUsageRecord[];
};
export function separateUsage(run: AiCitationCheckRun | BrandVisibilityRun) {
  if ("results" in run) {
    const usage = run.results.flatMap((r) => [r.usage, ...(r.sentimentUsage ? [r.sentimentUsage] : [])]);
    const results = run.results.map(({ usage: _usage, sentimentUsage: _judge, ...entry }) => entry);
    return { result: { ...run, results }, usage };
  }
  const { usage, sentimentUsage, ...result } = run;
  return { result, usage: [usage, ...(sentimentUsage ? [sentimentUsage] : [])] };
}

interface EngineRunState {
  engine: EngineName;
  entry: EngineRun;
  analysis: AnswerAnalysis | null;
}

async function checkEngines(
  input: { prompt: string; domain: string; competitors?: readonly string[] },
  engines: EngineName[],
  ctx: CheckContext,
): Promise<{ runs: EngineRunState[]; brandNames: string[]; competitors: string[] }> {
  const domain = findRegistrableDomain(input.domain) ?? input.domain.toLowerCase();
  const competitors = [
    ...new Set((input.competitors ?? []).map((c) => findRegistrableDomain(c) ?? c.toLowerCase())),
  ].filter((c) => c !== domain);
  const env = ctx.env ?? process.env;

  const [siteName, ...outcomes] = await Promise.all([
    readSiteName(input.domain, ctx.fetch, ctx.signal),
    ...engines.map((engine) =>
      ENGINE_ADAPTERS[engine]({
        prompt: input.prompt,
        signal: ctx.signal,
        deadline: ctx.deadline,
        env,
        retry: ctx.retry,
      }).then(
        (answer) => ({ engine, answer, error: null }),
        (error: unknown) => ({ engine, answer: null, error }),
      ),
    ),
  ]);

  const target = { domain, siteName, competitors };
  const runs = await Promise.all(
    outcomes.map(async ({ engine, answer, error }): Promise<EngineRunState> => {
      const model = answer?.model ?? resolveProvider(ENGINE_CONFIGS[engine], env).model;
      if (!answer) return { engine, entry: failedEntry(engine, model, error), analysis: null };
      // Cited and retrieved share links (Gemini's cited chunks are retrieved chunks): each is resolved once.
      const links = [...new Map([...answer.sources, ...answer.retrieved].map((s) => [s.url, s])).values()];
      const resolved = await resolveSources(engine, links, ctx.fetch, ctx.signal);
      const byUrl = new Map(links.map((s, i) => [s.url, resolved[i]!]));
      const sources = answer.sources.map((s) => byUrl.get(s.url)!);
      const retrieved = answer.retrieved.map((s) => byUrl.get(s.url)!);
      const analysis = analyzeAnswer(answer, sources, target, retrieved);
      const usage = { engine, model, ...answer.usage, attempts: answer.attempts };
      const entry: EngineRun = { ...analysis.entry, usage };
      if (analysis.entry.mentionPosition > 0) {
        const judged = await judgeSentences(
          {
            sentences: analysis.mentionSentences.raw,
            brand: analysis.mentions.find((m) => m.domain === domain)?.text ?? domain,
            lexiconSentences: analysis.mentionSentences.masked,
          },
          { env, signal: ctx.signal, deadline: ctx.deadline, retry: ctx.retry },
        );
        entry.sentiment = judged.sentiment;
        entry.sentimentDetail = {
          label: judged.label,
          method: judged.method,
          ...(judged.model ? { model: judged.model } : {}),
        };
        if (judged.usage) entry.sentimentUsage = judged.usage;
      }
      return { engine, entry, analysis };
    }),
  );

  const failures = runs.filter((r) => r.entry.error);
  if (failures.length === runs.length) {
    const detail = failures.map((r) => `${r.engine}: ${r.entry.error!.message}`).join(" ");
    throw new ToolError("ENGINES_FAILED", `No AI engine could answer. ${detail}`);
  }
  const label = findDomainLabel(domain);
  const brandNames = [...new Set([domain, ...(label ? [label] : []), ...(siteName ? [siteName] : [])])];
  return { runs, brandNames, competitors };
}

function failedEntry(engine: EngineName, model: string, error: unknown): EngineRun {
  const failure =
    error instanceof EngineError
      ? { code: error.code, message: error.message }
      : { code: "ENGINE_UNAVAILABLE", message: `${engine} failed unexpectedly.` };
  return {
    engine,
    cited: false,
    citedUrls: [],
    mentionPosition: 0,
    sentiment: "neutral",
    answer: "",
    sources: [],
    retrieved: [],
    queries: [],
    model,
    error: failure,
    usage: {
      engine,
      model,
      inputTokens: 0,
      outputTokens: 0,
      attempts: error instanceof EngineError ? (error.attempts ?? 0) : 0,
    },
  };
}
