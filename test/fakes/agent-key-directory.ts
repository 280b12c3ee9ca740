// An agent's Web Bot Auth key directory on 127.0.0.1 (port 0): /.well-known/http-message-signatures-directory with
// its real media type and caching headers (max-age=300), and the same keys as a Signature Agent Card at /card
// (client_id its own URL, the keys at its jwks_uri /jwks.json). A test sets `keys`, takes it down with
// `up = false` (503) and reads how many requests it answered.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { DIRECTORY_MEDIA_TYPE } from "@/lib/providers/agent-keys/directory";

export interface AgentKeyDirectory {
  /** http://127.0.0.1:PORT, the agent's origin. */
  origin: string;
  up: boolean;
  requests: number;
  /** The published JWKs. */
  keys: object[];
  close(): Promise<void>;
}

export async function startAgentKeyDirectory(): Promise<AgentKeyDirectory> {
  const server = http.createServer((req, res) => {
    directory.requests++;
    if (!directory.up) {
      res.writeHead(503).end();
      return;
    }
    if (req.url === "/.well-known/http-message-signatures-directory" || req.url === "/jwks.json") {
      res.writeHead(200, { "content-type": DIRECTORY_MEDIA_TYPE, "cache-control": "max-age=300" });
      res.end(JSON.stringify({ keys: directory.keys }));
    } else if (req.url === "/card") {
      res.writeHead(200, { "content-type": "application/json", "cache-control": "max-age=300" });
      res.end(
        JSON.stringify({
          client_id: `${directory.origin}/card`,
          client_name: "Test agent",
          jwks_uri: `${directory.origin}/jwks.json`,
          web_bot_auth: { trigger: "fetcher", purpose: "search" },
        }),
      );
    } else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const directory: AgentKeyDirectory = {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    up: true,
    requests: 0,
    keys: [],
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
  return directory;
}
