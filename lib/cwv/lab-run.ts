import { type Config, desktopConfig, type Flags, type FlowResult, startFlow } from "lighthouse";
import type { Frame, Page } from "puppeteer-core";
import type { PrivateTargetPolicy } from "@/lib/fetch/address-policy";
import type { Resolver } from "@/lib/fetch/guarded-fetch";
import { launchBrowser } from "./browser";
import { type EgressRefusal, startEgressProxy } from "./egress-proxy";
import { CwvError } from "./errors";
import { interactWithPage } from "./interactions";
import type { CwvStrategy, Interaction } from "./result-schema";

export interface LabRunOptions {
  url: string;
  strategy: CwvStrategy;
  /** Default /usr/bin/chromium. */
  chromePath?: string;
  policy: PrivateTargetPolicy;
  resolver?: Resolver;
  /** Lighthouse's own wait for the page to load (maxWaitForLoad). */
  loadTimeoutMs: number;
  /** Aborted on the run's deadline or when the caller gives up; Chromium dies with it. */
  signal: AbortSignal;
  onBrowserStart?: (info: { pid: number; userDataDir: string }) => void;
}

export interface LabRun {
  navigation: FlowResult.Step["lhr"];
  timespan: FlowResult.Step["lhr"] | null;
  interactions: Interaction[];
  interactionError: string | null;
  refusals: EgressRefusal[];
  /** Every URL the page requested; `document` marks the main frame's navigations and their redirects. */
  requests: { url: string; document: boolean }[];
  chromiumVersion: string;
  /** The CPU slowdown the interaction pass ran under. */
  cpuSlowdown: number;
}

function configFor(strategy: CwvStrategy): Config {
  const base = strategy === "desktop" ? desktopConfig : { extends: "lighthouse:default" as const };
  return {
    ...base,
    settings: {
      ...(base as Config).settings,
      onlyCategories: ["performance"],
      disableFullPageScreenshot: true,
    },
  };
}

/**
 * One Chromium, one user flow: a Lighthouse navigation (the preset's throttling, simulated), then a
 * timespan in which the page is clicked and typed into so that INP has real interactions to measure.
 */
export async function runLab(opts: LabRunOptions): Promise<LabRun> {
  const proxy = await startEgressProxy({ policy: opts.policy, resolver: opts.resolver });
  let dispose: (() => Promise<void>) | undefined;
  const stop = new AbortController();
  const forward = () => stop.abort(opts.signal.reason);
  if (opts.signal.aborted) forward();
  opts.signal.addEventListener("abort", forward, { once: true });
  const session: Session = { stop };
  try {
    const launched = await launchBrowser({ chromePath: opts.chromePath, proxyUrl: proxy.url });
    dispose = launched.dispose;
    opts.onBrowserStart?.({ pid: launched.pid, userDataDir: launched.userDataDir });
    const work = measure(launched.browser, proxy.refusals, opts, session);
    // Killing Chromium makes pending Lighthouse calls reject; that rejection has nobody left to hear it.
    work.catch(() => {});
    try {
      return await raceAbort(work, stop.signal);
    } catch (err) {
      await windDown(session, work);
      throw err;
    }
  } finally {
    opts.signal.removeEventListener("abort", forward);
    await dispose?.();
    await proxy.close();
  }
}

/** What a stopped run needs to wind Lighthouse down before its browser dies. */
interface Session {
  stop: AbortController;
  flow?: Awaited<ReturnType<typeof startFlow>>;
  page?: Page;
}

/**
 * Lets Lighthouse unwind before Chromium is killed: its flow is aborted and the pending navigation
 * stopped, so its protocol calls settle instead of rejecting later with no one listening.
 */
async function windDown(session: Session, work: Promise<unknown>): Promise<void> {
  session.flow?.dispose();
  // An aborted Lighthouse navigation leaves its frame listeners attached, and each main-frame navigation
  // sends a command that would fail unheard once Chromium dies. With scripts off and loading stopped the
  // page cannot navigate again, and the pause lets commands already sent come back.
  const client = await session.page?.createCDPSession().catch(() => null);
  await client?.send("Emulation.setScriptExecutionDisabled", { value: true }).catch(() => {});
  await client?.send("Page.stopLoading").catch(() => {});
  await Promise.race([work.catch(() => {}), sleep(3000)]);
  await sleep(250);
}

function sleep(ms: number) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

async function measure(
  browser: Awaited<ReturnType<typeof launchBrowser>>["browser"],
  refusals: EgressRefusal[],
  opts: LabRunOptions,
  session: Session,
): Promise<LabRun> {
  const chromiumVersion = (await browser.version()).replace(/^(Headless)?Chrome\//, "");
  // A fresh browser pays one-off start-up costs (fonts, renderer warm-up) on its first page; pay them on a
  // blank local page so they are not blamed on the site. data: URLs never touch the network. The warm-up has
  // a tab of its own: a tab that has shown nothing yet loads the site in the renderer it already has, which
  // is traced from the start. Navigating away from the data: page instead moved the site to a renderer
  // started mid-trace, whose first events (navigationStart among them) Chromium sometimes did not record:
  // Lighthouse then failed with NO_NAVSTART in 4 runs of 78 (0 of 50 with the tab of its own).
  const warmUp = await browser.newPage();
  await warmUp.goto("data:text/html,<p style='font-family:sans-serif'>warm-up</p><script>1</script>");
  const page = await browser.newPage();
  await warmUp.close();
  session.page = page;
  // The page's own requests (main-frame documents flagged), to tell its refused requests from the browser's.
  const requests = new Map<string, boolean>();
  page.on("request", (request) => {
    const isDocument = request.isNavigationRequest() && request.frame() === page.mainFrame();
    requests.set(request.url(), (requests.get(request.url()) ?? false) || isDocument);
  });
  const config = configFor(opts.strategy);
  const flags: Flags = {
    maxWaitForLoad: opts.loadTimeoutMs,
    maxWaitForFcp: opts.loadTimeoutMs,
    logLevel: "silent",
  };
  const flow = await startFlow(page, { config, flags });
  session.flow = flow;
  await watchCommit(page, opts.url, opts.loadTimeoutMs, session.stop, () =>
    flow.navigate(opts.url, { name: "navigation" }),
  );

  const throttling = config.settings?.throttling ?? {};
  const cpuSlowdown = opts.strategy === "desktop" ? 1 : (throttling.cpuSlowdownMultiplier ?? 4);
  let interactions: Interaction[] = [];
  let interactionError: string | null = null;
  let timespanOk = false;
  if (!flowFailed(flow)) {
    try {
      // Simulation cannot replay interactions, so the timespan slows the CPU for real (DevTools throttling),
      // as a phone of the preset's class would run the page's handlers.
      await flow.startTimespan({
        name: "interactions",
        throttlingMethod: "devtools",
        throttling: { ...throttling, cpuSlowdownMultiplier: cpuSlowdown },
      });
      interactions = await interactWithPage(page, opts.signal);
      await flow.endTimespan();
      timespanOk = true;
    } catch (err) {
      if (opts.signal.aborted) throw err;
      interactionError = err instanceof Error ? (err.message.split("\n")[0] ?? "") : String(err);
    }
  }
  const result = await flow.createFlowResult();
  const [navigationStep, timespanStep] = result.steps;
  if (!navigationStep) throw new CwvError("LIGHTHOUSE_FAILED", "Lighthouse returned no navigation result.");
  return {
    navigation: navigationStep.lhr,
    timespan: timespanOk ? (timespanStep?.lhr ?? null) : null,
    interactions,
    interactionError,
    refusals: [...refusals],
    requests: [...requests].map(([url, document]) => ({ url, document })),
    chromiumVersion,
    cpuSlowdown,
  };
}

/**
 * Lighthouse waits without limit for the first response of the page; a server that never answers
 * would hold the browser until the run's deadline. This stops the run once the load limit passes
 * with nothing committed.
 */
async function watchCommit(
  page: Page,
  url: string,
  limitMs: number,
  stop: AbortController,
  navigate: () => Promise<void>,
): Promise<void> {
  let committed = false;
  const onFrame = (frame: Frame) => {
    if (!frame.parentFrame() && /^https?:/.test(frame.url())) committed = true;
  };
  page.on("framenavigated", onFrame);
  const timer = setTimeout(() => {
    if (committed) return;
    stop.abort(
      new CwvError(
        "PAGE_TIMEOUT",
        `${new URL(url).host} did not answer within ${Math.round(limitMs / 1000)} s.`,
      ),
    );
  }, limitMs);
  try {
    await navigate();
  } finally {
    clearTimeout(timer);
    page.off("framenavigated", onFrame);
  }
}

/** True when the navigation step already ended in a runtime error (nothing to interact with). */
function flowFailed(flow: Awaited<ReturnType<typeof startFlow>>): boolean {
  const step = flow._gatherSteps[0];
  const artifacts = step?.artifacts as { PageLoadError?: unknown } | undefined;
  return Boolean(artifacts?.PageLoadError);
}

function raceAbort<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (err) => {
        signal.removeEventListener("abort", onAbort);
        reject(err);
      },
    );
  });
}
