// The crawler operators' IP range lists on 127.0.0.1 (port 0), each at its real path (BOT_RANGES_BASE_URL points
// every operator here): JSON files in the operators' format, and Amazon's lists inside web pages as Amazon serves
// them. By default each list is the committed file's, published whole; a test replaces `lists[key]`, or sets it
// to a status code to answer with that instead.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { RANGE_SOURCES, type RangeSourceKey } from "@/lib/tracking/catalog/ip-ranges/sources";
import { committedListsAsWhole } from "@/test/support/range-feeds";

export interface FakeBotRanges {
  /** http://127.0.0.1:PORT: the value of BOT_RANGES_BASE_URL. */
  url: string;
  lists: Partial<Record<RangeSourceKey, object | number>>;
  /** Requests answered, by source. */
  requests: Partial<Record<RangeSourceKey, number>>;
  close(): Promise<void>;
}

export async function startFakeBotRanges(): Promise<FakeBotRanges> {
  const byPath = new Map(RANGE_SOURCES.map((s) => [new URL(s.url).pathname, s]));
  const fake: FakeBotRanges = {
    url: "",
    lists: committedListsAsWhole() as Record<RangeSourceKey, object>,
    requests: {},
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
  const server = http.createServer((req, res) => {
    const source = byPath.get(new URL(req.url ?? "/", "http://x").pathname);
    if (!source) {
      res.writeHead(404).end();
      return;
    }
    fake.requests[source.key] = (fake.requests[source.key] ?? 0) + 1;
    const list = fake.lists[source.key];
    if (list === undefined || typeof list === "number") {
      res.writeHead(typeof list === "number" ? list : 404).end();
      return;
    }
    const json = JSON.stringify(list, null, 2);
    if (source.embedded === "html") {
      res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
      res.end(`<!doctype html><html><body><h1>IP addresses</h1><pre>${json}</pre></body></html>`);
    } else {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(json);
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return fake;
}
