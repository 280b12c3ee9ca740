import http from "node:http";
import type { FuzzRequest } from "./requests";

export interface FuzzResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/**
 * Sends a request with Node's HTTP client rather than fetch, so any method, header and body bytes go
 * out as generated (fetch would refuse or rewrite some of them).
 */
export function sendRaw(
  base: URL,
  agent: http.Agent,
  req: FuzzRequest,
  credentials: Record<string, string>,
  timeoutMs = 30_000,
): Promise<FuzzResponse> {
  const headers: Record<string, string> = { ...req.headers, ...credentials };
  if (req.body) headers["content-length"] = String(req.body.length);
  return new Promise((resolve, reject) => {
    const r = http.request(
      {
        host: base.hostname,
        port: base.port,
        method: req.method,
        path: req.path,
        headers,
        agent,
        timeout: timeoutMs,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
        );
        res.on("error", reject);
      },
    );
    r.on("timeout", () => r.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    r.on("error", reject);
    r.end(req.body);
  });
}
