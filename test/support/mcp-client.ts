import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { DbHandle } from "@/lib/db/client";
import type { TestAccount } from "../accounts";
import type { TestApi } from "../api-server";
import { stubDataForSeoEnv } from "./dataforseo-env";
import { startTestApiSetup } from "./test-api";

export interface McpTestSetup {
  handle: DbHandle;
  api: TestApi;
  acct: TestAccount;
  client: Client;
}

/** A fresh database, the app over HTTP, an account with 1000 credits and the MCP SDK client connected as it. */
export async function startMcpTestClient(name: string): Promise<McpTestSetup> {
  // The keyword and backlink tools need a data source to be created at all.
  stubDataForSeoEnv();
  const { handle, api, acct } = await startTestApiSetup({ credits: 1000 });
  const client = new Client({ name, version: "1.0.0" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${api.url}/api/v1/mcp`), {
      requestInit: { headers: acct.headers },
    }),
  );
  return { handle, api, acct, client };
}

export async function closeMcpTestClient(setup: Partial<McpTestSetup>): Promise<void> {
  await setup.client?.close().catch(() => {});
  await setup.api?.close();
  await setup.handle?.close();
}
