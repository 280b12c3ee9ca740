import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import puppeteer, { type Browser } from "puppeteer-core";
import { CwvError } from "./errors";

const DEFAULT_CHROME_PATH = "/usr/bin/chromium";

const BASE_FLAGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
  "--disable-quic",
  "--disable-dev-shm-usage",
  // Nothing may leave the machine except through the proxy: no DNS prefetch or preconnect of its own,
  // no WebRTC UDP around the proxy, no side channels from optional services.
  "--dns-prefetch-disable",
  "--disable-features=NetworkPrediction,DnsOverHttps,AsyncDns,OptimizationHints,OptimizationGuideModelDownloading,MediaRouter,Translate,AutofillServerCommunication,CertificateTransparencyComponentUpdater,InterestFeedContentSuggestions,SafeBrowsing",
  "--disable-default-apps",
  "--disable-extensions",
  "--disable-breakpad",
  "--no-default-browser-check",
  "--disable-signin-promo",
  "--safebrowsing-disable-auto-update",
  "--google-base-url=http://0.0.0.0",
  "--force-webrtc-ip-handling-policy=disable_non_proxied_udp",
  "--webrtc-ip-handling-policy=disable_non_proxied_udp",
  "--disable-domain-reliability",
  "--disable-client-side-phishing-detection",
  "--no-pings",
  "--metrics-recording-only",
  "--mute-audio",
];

export interface LaunchedBrowser {
  browser: Browser;
  pid: number;
  userDataDir: string;
  /** Kills Chromium and every process it started, then removes the profile. Safe to call twice. */
  dispose(): Promise<void>;
}

/** One Chromium with a fresh profile, sending every request (loopback too) through `proxyUrl`. */
export async function launchBrowser(opts: {
  chromePath?: string;
  proxyUrl: string;
}): Promise<LaunchedBrowser> {
  const chromePath = opts.chromePath ?? DEFAULT_CHROME_PATH;
  const userDataDir = await mkdtemp(path.join(os.tmpdir(), "cwv-profile-"));
  let browser: Browser;
  try {
    browser = await puppeteer.launch({
      executablePath: chromePath,
      headless: true,
      userDataDir,
      args: [...BASE_FLAGS, `--proxy-server=${opts.proxyUrl}`, "--proxy-bypass-list=<-loopback>"],
      defaultViewport: null,
      handleSIGINT: false,
      handleSIGTERM: false,
      handleSIGHUP: false,
      timeout: 30_000,
      protocolTimeout: 120_000,
    });
  } catch (err) {
    await rm(userDataDir, { recursive: true, force: true });
    const reason = err instanceof Error ? err.message.split("\n")[0] : String(err);
    throw new CwvError("BROWSER_UNAVAILABLE", `Chromium could not be started (${chromePath}): ${reason}`);
  }
  const pid = browser.process()?.pid ?? 0;
  let disposed: Promise<void> | undefined;
  return {
    browser,
    pid,
    userDataDir,
    dispose: () => {
      disposed ??= (async () => {
        await killProcessTree(pid);
        browser.disconnect().catch(() => {});
        await rm(userDataDir, { recursive: true, force: true, maxRetries: 3 });
      })();
      return disposed;
    },
  };
}

/**
 * SIGKILL to Chromium, its process group (it is launched detached) and every descendant found in
 * /proc, since the zygote and renderers may have left the group.
 */
async function killProcessTree(pid: number): Promise<void> {
  if (!pid) return;
  const victims = [pid, ...(await listDescendants(pid))];
  try {
    process.kill(-pid, "SIGKILL");
  } catch {
    // The group is gone already.
  }
  for (const victim of victims) {
    try {
      process.kill(victim, "SIGKILL");
    } catch {
      // Already exited.
    }
  }
  // Reaped children disappear from /proc; wait briefly so callers can rely on it.
  for (let i = 0; i < 50 && (await anyAlive(victims)); i++) await new Promise((r) => setTimeout(r, 20));
}

async function anyAlive(pids: number[]): Promise<boolean> {
  for (const pid of pids) {
    const stat = await readFile(`/proc/${pid}/stat`, "utf8").catch(() => null);
    // A zombie ("Z") has exited; it only waits for its parent to reap it.
    if (stat && parseStat(stat)?.state !== "Z") return true;
  }
  return false;
}

interface ProcStat {
  pid: number;
  ppid: number;
  state: string;
}

function parseStat(stat: string): ProcStat | null {
  // The command name sits in parentheses and may itself contain spaces or parentheses.
  const close = stat.lastIndexOf(")");
  const fields = stat.slice(close + 2).split(" ");
  const pid = Number.parseInt(stat, 10);
  const ppid = Number(fields[1]);
  return Number.isFinite(pid) && Number.isFinite(ppid) ? { pid, ppid, state: fields[0] ?? "" } : null;
}

/** Every live process below `root`, from /proc (Linux). */
async function listDescendants(root: number): Promise<number[]> {
  const entries = await readdir("/proc").catch(() => [] as string[]);
  const children = new Map<number, number[]>();
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = await readFile(`/proc/${entry}/stat`, "utf8").catch(() => null);
    const parsed = stat ? parseStat(stat) : null;
    if (!parsed) continue;
    const list = children.get(parsed.ppid) ?? [];
    list.push(parsed.pid);
    children.set(parsed.ppid, list);
  }
  const found: number[] = [];
  const queue = [root];
  while (queue.length > 0) {
    const next = queue.shift() as number;
    for (const child of children.get(next) ?? []) {
      found.push(child);
      queue.push(child);
    }
  }
  return found;
}

export interface TreeMemory {
  /** Sum of VmRSS: counts the pages Chromium's processes share once per process, so it overstates. */
  rssBytes: number;
  /** Sum of PSS (shared pages split between their users): the tree's real share of memory. */
  pssBytes: number;
}

/** Memory of `root` and all its descendants, from /proc (Linux). */
export async function measureTreeMemory(root: number): Promise<TreeMemory> {
  let rssBytes = 0;
  let pssBytes = 0;
  for (const pid of [root, ...(await listDescendants(root))]) {
    const status = await readFile(`/proc/${pid}/status`, "utf8").catch(() => "");
    const rss = /VmRSS:\s+(\d+) kB/.exec(status);
    if (rss) rssBytes += Number(rss[1]) * 1024;
    const rollup = await readFile(`/proc/${pid}/smaps_rollup`, "utf8").catch(() => "");
    const pss = /^Pss:\s+(\d+) kB/m.exec(rollup);
    if (pss) pssBytes += Number(pss[1]) * 1024;
    else if (rss) pssBytes += Number(rss[1]) * 1024;
  }
  return { rssBytes, pssBytes };
}
