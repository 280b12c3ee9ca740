import http from "node:http";
import { judge } from "./check";
import type { AuthMode, FuzzRequest } from "./requests";
import { sendRaw } from "./send";
import type { FuzzTarget } from "./targets";

export interface FuzzRun {
  seconds: number;
  /** label → status (or "error CODE") → count */
  counts: Map<string, Map<string, number>>;
  problems: string[];
  /** Jobs the answers reported as created (and charged). */
  createdJobs: Set<string>;
  slowest: { ms: number; req: FuzzRequest }[];
}

const describeRequest = (r: FuzzRequest) =>
  JSON.stringify({
    method: r.method,
    path: r.path.length > 300 ? `${r.path.slice(0, 300)}…` : r.path,
    auth: r.auth,
    headers: Object.fromEntries(
      Object.entries(r.headers).map(([k, v]) => [k, v.length > 120 ? `${v.slice(0, 120)}…(${v.length})` : v]),
    ),
    body: r.body ? r.body.toString("utf8").slice(0, 300) : undefined,
  });

/** Sends every request, `concurrency` at a time, and judges each answer. */
export async function runFuzz(
  baseUrl: string,
  requests: FuzzRequest[],
  opts: {
    targets: Map<string, FuzzTarget>;
    credentials: (mode: AuthMode) => Record<string, string>;
    concurrency: number;
  },
): Promise<FuzzRun> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: opts.concurrency });
  const base = new URL(baseUrl);
  const run: FuzzRun = { seconds: 0, counts: new Map(), problems: [], createdJobs: new Set(), slowest: [] };
  const started = performance.now();
  let next = 0;

  const sendOne = async (req: FuzzRequest): Promise<string> => {
    try {
      const res = await sendRaw(base, agent, req, opts.credentials(req.auth));
      const verdict = judge(
        req,
        res,
        opts.targets.get(req.label)?.raw ?? false,
        req.label.startsWith("/mcp"),
      );
      for (const id of verdict.jobIds) run.createdJobs.add(id);
      if (verdict.problem) run.problems.push(`${verdict.problem}\n    ${describeRequest(req)}`);
      return String(res.status);
    } catch (err) {
      const code = (err as { code?: string }).code ?? String(err);
      // Node's parser may reset the connection while refusing oversize headers; that is an answer too.
      const reset = code === "ECONNRESET" || code === "EPIPE";
      if (!(req.refusedByServer && reset))
        run.problems.push(`no answer (${code})\n    ${describeRequest(req)}`);
      return `error ${code}`;
    }
  };

  const worker = async () => {
    while (next < requests.length) {
      const req = requests[next++]!;
      const sent = performance.now();
      const status = await sendOne(req);
      run.slowest.push({ ms: performance.now() - sent, req });
      run.slowest.sort((a, b) => b.ms - a.ms).splice(3);
      const byStatus = run.counts.get(req.label) ?? new Map<string, number>();
      byStatus.set(status, (byStatus.get(status) ?? 0) + 1);
      run.counts.set(req.label, byStatus);
    }
  };
  await Promise.all(Array.from({ length: opts.concurrency }, worker));
  agent.destroy();
  run.seconds = (performance.now() - started) / 1000;
  return run;
}

/** Requests per label and status, and the slowest requests, for the test's output. */
export function formatReport(run: FuzzRun, total: number, seed: number): string {
  const lines = [...run.counts.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([label, byStatus]) => {
      const count = [...byStatus.values()].reduce((a, b) => a + b, 0);
      const detail = [...byStatus.entries()]
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([s, n]) => `${s}×${n}`)
        .join(" ");
      return `  ${label.padEnd(26)} ${String(count).padStart(5)}  ${detail}`;
    });
  const slow = run.slowest.map((s) => `  ${Math.round(s.ms)} ms ${describeRequest(s.req).slice(0, 300)}`);
  return [
    `fuzz: ${total} requests in ${run.seconds.toFixed(1)} s (seed ${seed}), ${run.createdJobs.size} jobs accepted`,
    ...lines,
    "slowest:",
    ...slow,
  ].join("\n");
}
