import { createRequire } from "node:module";

/** The parts of newman's Node API used here (the package ships no types). */
interface NewmanSummary {
  run: {
    stats: { requests: { total: number; failed: number }; assertions: { total: number; failed: number } };
    failures: { error: { name: string; message: string; test?: string }; source?: { name?: string } }[];
  };
}
interface Newman {
  run(
    options: {
      collection: unknown;
      envVar?: { key: string; value: string }[];
      reporters?: string[];
      timeoutRequest?: number;
    },
    callback: (err: Error | null, summary: NewmanSummary) => void,
  ): void;
}
const newman = createRequire(import.meta.url)("newman") as Newman;

export interface NewmanResult {
  requests: number;
  assertions: number;
  passed: number;
  failed: number;
  failures: string[];
}

/**
 * Downloads /api/v1/postman.json with the given key and runs it with newman against the same server.
 * `siteUrl` is a loopback address the guarded fetcher refuses, so the tool jobs fail and are refunded
 * without a request leaving the machine.
 */
export async function runPostmanCollection(opts: {
  baseUrl: string;
  key: string;
  secret: string;
  domain: string;
  siteUrl?: string;
  reporters?: string[];
}): Promise<NewmanResult> {
  const origin = opts.baseUrl.replace(/\/+$/, "");
  const res = await fetch(`${origin}/api/v1/postman.json`, {
    headers: { "x-api-key": opts.key, "x-api-secret": opts.secret },
  });
  if (res.status !== 200)
    throw new Error(`GET /api/v1/postman.json answered ${res.status}: ${await res.text()}`);
  const collection = await res.json();
  const summary = await new Promise<NewmanSummary>((resolve, reject) =>
    newman.run(
      {
        collection,
        envVar: [
          { key: "baseUrl", value: `${origin}/api/v1` },
          { key: "apiKey", value: opts.key },
          { key: "apiSecret", value: opts.secret },
          { key: "domain", value: opts.domain },
          { key: "siteUrl", value: opts.siteUrl ?? "http://127.0.0.1:9/" },
          { key: "legacyBaseUrl", value: `${origin}/api` },
          // The e2e server allows loopback targets (its documented test allowance); nothing listens on port 9,
          // so the webhook deliveries fail and are retried without a request leaving the machine.
          { key: "webhookUrl", value: "http://127.0.0.1:9/webhook" },
        ],
        reporters: opts.reporters ?? ["cli"],
        timeoutRequest: 30_000,
      },
      (err, s) => (err ? reject(err) : resolve(s)),
    ),
  );
  const { assertions, requests } = summary.run.stats;
  return {
    requests: requests.total,
    assertions: assertions.total,
    passed: assertions.total - assertions.failed,
    failed: assertions.failed,
    failures: summary.run.failures.map(
      (f) => `${f.source?.name ?? "?"}: ${f.error.test ? `${f.error.test}: ` : ""}${f.error.message}`,
    ),
  };
}
