import http from "node:http";
import type { AddressInfo } from "node:net";

/** One Plausible fact: visits of a day from a source, with pageviews of a page. */
export interface FakePlausibleRow {
  date: string;
  source: string;
  page: string;
  visits: number;
  visitors: number;
  pageviews: number;
}

export interface FakePlausible {
  url: string;
  apiKey: string;
  requests: { path: string; auth: string | undefined; body: unknown }[];
  /** The key is deleted in Plausible: every query is 401. */
  revokeKey(): void;
  close(): Promise<void>;
}

const DIMENSION: Record<string, keyof FakePlausibleRow> = {
  "time:day": "date",
  "visit:source": "source",
  "event:page": "page",
};

/** Plausible's Stats API v2 (`POST /api/v2/query`, Bearer key) on 127.0.0.1, answering `{ results, meta, query }`. */
export async function startFakePlausible(opts: {
  site: string;
  rows: FakePlausibleRow[];
}): Promise<FakePlausible> {
  const apiKey = "plausible-key-0123456789abcdefghij";
  const requests: FakePlausible["requests"] = [];
  let keyValid = true;
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    let body: Record<string, unknown> | null = null;
    try {
      body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
    } catch {
      body = null;
    }
    requests.push({ path: req.url ?? "", auth: req.headers.authorization, body });
    const send = (status: number, payload: unknown) => {
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify(payload));
    };
    if (req.url !== "/api/v2/query" || req.method !== "POST") return send(404, { error: "Not found" });
    if (!keyValid || req.headers.authorization !== `Bearer ${apiKey}`) {
      return send(401, {
        error:
          "Invalid API key or site ID. Please make sure you're using a valid API key with access to the site you've requested.",
      });
    }
    if (!body || body.site_id !== opts.site) {
      return send(400, {
        error: `Error: Site '${String(body?.site_id)}' not found or API key has no access to it.`,
      });
    }
    const [from, to] = body.date_range as [string, string];
    const dims = ((body.dimensions as string[] | undefined) ?? []).map((d) => DIMENSION[d]);
    if (dims.some((d) => !d)) return send(400, { error: "Invalid dimensions" });
    const metrics = body.metrics as (keyof FakePlausibleRow)[];
    const groups = new Map<string, { dimensions: string[]; metrics: number[] }>();
    for (const r of opts.rows) {
      if (r.date < from || r.date > to) continue;
      const keys = dims.map((d) => String(r[d!]));
      const g = groups.get(keys.join("\u0000")) ?? { dimensions: keys, metrics: metrics.map(() => 0) };
      metrics.forEach((m, i) => {
        g.metrics[i]! += Number(r[m]);
      });
      groups.set(keys.join("\u0000"), g);
    }
    let results = [...groups.values()];
    const order = (body.order_by as [string, string][] | undefined)?.[0];
    if (order) {
      const i = metrics.indexOf(order[0] as keyof FakePlausibleRow);
      results.sort((a, b) =>
        order[1] === "desc" ? b.metrics[i]! - a.metrics[i]! : a.metrics[i]! - b.metrics[i]!,
      );
    }
    const limit = (body.pagination as { limit?: number } | undefined)?.limit;
    if (limit) results = results.slice(0, limit);
    if (dims.length === 0 && results.length === 0)
      results = [{ dimensions: [], metrics: metrics.map(() => 0) }];
    return send(200, {
      results,
      meta: {},
      query: { ...body, date_range: [`${from}T00:00:00Z`, `${to}T23:59:59Z`] },
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    apiKey,
    requests,
    revokeKey: () => {
      keyValid = false;
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
