// A webhook receiver on 127.0.0.1 that verifies every request with the standardwebhooks library, as a customer's
// server would, and answers with the statuses queued for it (200 once the queue is empty).
import http from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";

interface Received {
  id: string;
  timestamp: string;
  signature: string;
  body: string;
  payload: { type: string; timestamp: string; data: Record<string, unknown> };
  /** Which of the receiver's secrets verified it (indexes into `secrets`); empty when none did. */
  verifiedWith: number[];
  answered: number | "held";
}

export interface Receiver {
  url: string;
  received: Received[];
  /** Secrets to verify with (set after creating the endpoint; several during a rotation). */
  secrets: string[];
  /** Statuses to answer, in order; "hold" keeps the request open without an answer. */
  queue: (number | "hold")[];
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const held: http.ServerResponse[] = [];
  const state: Receiver = {
    url: "",
    received: [],
    secrets: [],
    queue: [],
    close: async () => {
      for (const res of held) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = Buffer.concat(chunks).toString("utf8");
    const headers = {
      "webhook-id": String(req.headers["webhook-id"] ?? ""),
      "webhook-timestamp": String(req.headers["webhook-timestamp"] ?? ""),
      "webhook-signature": String(req.headers["webhook-signature"] ?? ""),
    };
    const verifiedWith: number[] = [];
    state.secrets.forEach((secret, i) => {
      try {
        new Webhook(secret).verify(body, headers);
        verifiedWith.push(i);
      } catch {
        // not signed with this one
      }
    });
    const next = state.queue.shift() ?? 200;
    state.received.push({
      id: headers["webhook-id"],
      timestamp: headers["webhook-timestamp"],
      signature: headers["webhook-signature"],
      body,
      payload: JSON.parse(body),
      verifiedWith,
      answered: next === "hold" ? "held" : next,
    });
    if (next === "hold") {
      held.push(res);
      return;
    }
    if (next >= 300 && next < 400) {
      res.writeHead(next, { location: `${state.url}/redirected` }).end();
      return;
    }
    res.writeHead(next, { "content-type": "text/plain" }).end("ok");
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  return state;
}
