import {
  findAddressViolation,
  isIpLiteral,
  isMetadataHostname,
  type PrivateTargetPolicy,
  unbracket,
} from "@/lib/fetch/address-policy";
import { FetchError } from "@/lib/fetch/errors";
import {
  lookupAllowed,
  type Resolver,
  readPrivateTargetPolicy,
  resolveWithSystemDns,
} from "@/lib/fetch/guarded-fetch";
import type { GuardedFetch } from "@/lib/fetch/types";
import type { EgressRefusal } from "./egress-proxy";
import { CwvError } from "./errors";
import {
  extractFindings,
  extractLabInp,
  extractLabMetrics,
  extractLayoutShifts,
  extractLcpElement,
  extractScreenshot,
  extractWarnings,
} from "./extract";
import { type FieldOutcome, fetchFieldData } from "./field";
import type { LabRun, LabRunOptions } from "./lab-run";
import {
  type CoreWebVitalsResult,
  type CwvStrategy,
  coreWebVitalsResult,
  type MetricValue,
} from "./result-schema";
import { acquireRunSlot, readRunLimit } from "./run-slots";

export interface CoreWebVitalsInput {
  /** http(s) URL, already validated by the tool's input schema. */
  url: string;
  strategy?: CwvStrategy;
}

export interface CoreWebVitalsContext {
  /** The job's signal: timeout or worker stop. Chromium is killed when it fires. */
  signal: AbortSignal;
  /** The guarded fetcher of the tool context; the browser applies the same policy through its proxy. */
  fetch?: GuardedFetch;
  /** Configuration (see README of lib/cwv); default process.env. */
  env?: Record<string, string | undefined>;
  /** Tests inject host names here, as for the guarded fetcher. */
  resolver?: Resolver;
  /** Called once Chromium runs; the benchmark samples its memory, tests check that it is gone after. */
  onBrowserStart?: (info: { pid: number; userDataDir: string }) => void;
}

const DEFAULT_RUN_TIMEOUT_MS = 90_000;
const DEFAULT_LOAD_TIMEOUT_MS = 30_000;
const DOCUMENT_ERRORS = new Set([
  "ERRORED_DOCUMENT_REQUEST",
  "FAILED_DOCUMENT_REQUEST",
  "DNS_FAILURE",
  "INSECURE_DOCUMENT_REQUEST",
  "CHROME_INTERSTITIAL_ERROR",
  "NOT_HTML",
]);
const HUNG_ERRORS = new Set(["NO_FCP", "PAGE_HUNG", "NO_LCP"]);
/** Broken traces, which Lighthouse says another run usually fixes. */
const RETRY_ERRORS = new Set(["NO_NAVSTART", "NO_TRACING_STARTED", "NO_RESOURCE_REQUEST"]);

function readMs(value: string | undefined, fallback: number): number {
  const parsed = Number(value);
  return Number.isFinite(parsed) && parsed >= 1000 ? parsed : fallback;
}

/**
 * Measures a page's Core Web Vitals in a real Chromium (Lighthouse navigation + a scripted interaction
 * pass for INP) and adds the Chrome UX Report's field values when CRUX_API_KEY is set.
 * Throws CwvError with one of CWV_ERROR_CODES.
 */
export async function runCoreWebVitals(
  input: CoreWebVitalsInput,
  ctx: CoreWebVitalsContext,
): Promise<CoreWebVitalsResult> {
  const env = ctx.env ?? process.env;
  const strategy = input.strategy ?? "mobile";
  const policy = readPrivateTargetPolicy(env);
  const resolver = ctx.resolver ?? resolveWithSystemDns;
  const url = await checkTarget(input.url, policy, resolver);

  const release = await acquireRunSlot(readRunLimit(env), ctx.signal);
  try {
    const runTimeoutMs = readMs(env.CWV_RUN_TIMEOUT_MS, DEFAULT_RUN_TIMEOUT_MS);
    const deadline = AbortSignal.timeout(runTimeoutMs);
    const signal = AbortSignal.any([ctx.signal, deadline]);
    const fieldPromise = fetchFieldData(url.href, strategy, { env, signal }).catch(
      (): FieldOutcome => ({ field: null, reason: "The Chrome UX Report lookup failed unexpectedly." }),
    );
    const labOptions = {
      url: url.href,
      strategy,
      chromePath: env.CHROME_PATH?.trim() || undefined,
      policy,
      resolver,
      loadTimeoutMs: readMs(env.CWV_PAGE_LOAD_TIMEOUT_MS, DEFAULT_LOAD_TIMEOUT_MS),
      signal,
      onBrowserStart: ctx.onBrowserStart,
    };
    let labRun = await measureLab(labOptions, { ctxSignal: ctx.signal, deadline, runTimeoutMs });
    // Lighthouse itself asks for another run when its trace came out broken; one more, in a fresh browser.
    if (RETRY_ERRORS.has(labRun.navigation.runtimeError?.code ?? "")) {
      labRun = await measureLab(labOptions, { ctxSignal: ctx.signal, deadline, runTimeoutMs });
    }
    return buildResult(url.href, strategy, labRun, await fieldPromise);
  } finally {
    release();
  }
}

async function measureLab(
  options: LabRunOptions,
  limits: { ctxSignal: AbortSignal; deadline: AbortSignal; runTimeoutMs: number },
): Promise<LabRun> {
  try {
    // Lighthouse and puppeteer cost about 270 MB of memory once loaded: only processes that measure pay it.
    const { runLab } = await import("./lab-run");
    return await runLab(options);
  } catch (err) {
    if (err instanceof CwvError) throw err;
    if (limits.ctxSignal.aborted)
      throw new CwvError("ABORTED", "The measurement was stopped before it finished.");
    if (limits.deadline.aborted) {
      throw new CwvError(
        "PAGE_TIMEOUT",
        `The page did not finish loading and being measured within ${Math.round(limits.runTimeoutMs / 1000)} s.`,
      );
    }
    const reason = err instanceof Error ? (err.message.split("\n")[0] ?? "") : String(err);
    throw new CwvError("LIGHTHOUSE_FAILED", `Lighthouse could not measure the page: ${reason}`);
  }
}

/** Scheme, credentials and the address policy for the page itself, before a browser is started. */
async function checkTarget(raw: string, policy: PrivateTargetPolicy, resolver: Resolver): Promise<URL> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new CwvError("INVALID_URL", "The URL is not valid.");
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new CwvError("INVALID_URL", `Only http and https pages can be measured, not ${url.protocol}.`);
  }
  if (url.username || url.password)
    throw new CwvError("INVALID_URL", "URLs with a user name or password are not measured.");
  const host = unbracket(url.hostname);
  if (isMetadataHostname(host)) {
    throw new CwvError("TARGET_FORBIDDEN", `${host} is a cloud metadata host and is never measured.`);
  }
  if (isIpLiteral(host)) {
    const violation = findAddressViolation(host, policy);
    if (violation) {
      throw new CwvError(
        "TARGET_FORBIDDEN",
        `${url.host} is a ${violation}; only publicly reachable pages are measured.`,
      );
    }
    return url;
  }
  try {
    await lookupAllowed(host, resolver, policy);
  } catch (err) {
    if (err instanceof FetchError && (err.code === "TARGET_FORBIDDEN" || err.code === "DNS_ERROR")) {
      throw new CwvError(err.code, err.message);
    }
    throw new CwvError("DNS_ERROR", `The host name ${host} could not be resolved.`);
  }
  return url;
}

type PageRefusal = EgressRefusal & { document: boolean };

function failFromRuntimeError(run: LabRun, pageRefusals: PageRefusal[]): void {
  // A refused main document (a redirect or a script navigation to a private address) means the page
  // measured would be the proxy's refusal, never the customer's page: fail even if Lighthouse did not.
  const refused = pageRefusals.find((r) => r.document);
  if (refused) {
    throw new CwvError(
      "TARGET_FORBIDDEN",
      `The page led to ${refused.hostname} (${refused.reason}); only publicly reachable pages are measured.`,
    );
  }
  const error = run.navigation.runtimeError;
  if (!error) return;
  if (HUNG_ERRORS.has(error.code)) {
    throw new CwvError("PAGE_TIMEOUT", `The page did not render in time: ${error.message}`);
  }
  if (DOCUMENT_ERRORS.has(error.code)) throw new CwvError("PAGE_LOAD_FAILED", error.message);
  throw new CwvError("LIGHTHOUSE_FAILED", `Lighthouse could not measure the page: ${error.message}`);
}

/** The refusals that were requests of the page (the browser's own background calls are left out). */
function findPageRefusals(run: LabRun): PageRefusal[] {
  const seen = new Set<string>();
  const found: PageRefusal[] = [];
  for (const refusal of run.refusals) {
    const match = run.requests.find((req) => {
      if (req.url === refusal.target) return true;
      if (!req.url.startsWith("https:") && !req.url.startsWith("wss:")) return false;
      const parsed = new URL(req.url);
      return `${parsed.hostname}:${parsed.port || "443"}` === refusal.target;
    });
    if (!match || seen.has(refusal.target)) continue;
    seen.add(refusal.target);
    found.push({ ...refusal, document: match.document });
  }
  return found;
}

function buildResult(
  url: string,
  strategy: CwvStrategy,
  run: LabRun,
  fieldOutcome: FieldOutcome,
): CoreWebVitalsResult {
  const pageRefusals = findPageRefusals(run);
  failFromRuntimeError(run, pageRefusals);
  const lhr = run.navigation;
  const score = lhr.categories.performance?.score;
  if (typeof score !== "number") {
    throw new CwvError("LIGHTHOUSE_FAILED", "Lighthouse returned no performance score for the page.");
  }
  let labMetrics: ReturnType<typeof extractLabMetrics>;
  try {
    labMetrics = extractLabMetrics(lhr);
  } catch (err) {
    throw new CwvError("LIGHTHOUSE_FAILED", err instanceof Error ? err.message : String(err));
  }
  const labInp = extractLabInp(run.timespan);
  let inpReason = labInp.reason;
  if (run.interactions.length === 0) {
    inpReason = run.interactionError
      ? `The interaction pass failed (${run.interactionError}), so there is no lab INP.`
      : "The page has nothing to interact with (no buttons, links that stay on the page, menus or text fields), so there is no lab INP.";
  }
  const lab = { ...labMetrics, inp: run.interactions.length > 0 ? labInp.inp : null };

  const field = fieldOutcome.field;
  const fromField = (
    metric: { p75: number; rating: MetricValue["rating"] } | null | undefined,
  ): MetricValue | null => (metric ? { value: metric.p75, rating: metric.rating, source: "field" } : null);
  const inp = fromField(field?.inp) ?? lab.inp;
  const warnings = [...extractWarnings(lhr), ...(run.timespan ? extractWarnings(run.timespan) : [])];
  if (run.interactionError) warnings.push(`Interaction pass: ${run.interactionError}`);

  return coreWebVitalsResult.parse({
    url,
    finalUrl: lhr.finalDisplayedUrl || lhr.mainDocumentUrl || url,
    strategy,
    performanceScore: Math.round(score * 100),
    lcp: fromField(field?.lcp) ?? lab.lcp,
    cls: fromField(field?.cls) ?? lab.cls,
    inp,
    inpReason: inp ? null : inpReason,
    fcp: lab.fcp,
    tbt: lab.tbt,
    speedIndex: lab.speedIndex,
    ttfb: lab.ttfb,
    lab,
    interactions: {
      made: run.interactions,
      conditions:
        run.cpuSlowdown > 1
          ? `Scripted clicks and typing on the emulated phone, CPU slowed ${run.cpuSlowdown}× in real time (DevTools throttling).`
          : "Scripted clicks and typing on the emulated desktop, CPU not slowed.",
    },
    lcpElement: extractLcpElement(lhr),
    layoutShifts: extractLayoutShifts(lhr),
    ...extractFindings(lhr),
    field,
    fieldReason: fieldOutcome.reason,
    blockedRequests: pageRefusals.map((r) => ({ target: r.target, reason: r.reason })),
    screenshot: extractScreenshot(lhr),
    warnings,
    lighthouseVersion: lhr.lighthouseVersion,
    chromiumVersion: run.chromiumVersion,
    fetchedAt: lhr.fetchTime,
  });
}
