import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { DbHandle } from "@/lib/db/client";
import type { TestAccount } from "../accounts";
import type { TestApi } from "../api-server";
import { stubDataForSeoEnv } from "./dataforseo-env";
import { apiTest } from "./fixtures";

export interface McpTestSetup {
  handle: DbHandle;
  api: TestApi;
  acct: TestAccount;
  client: Client;
}

/**
 * apiTest with an account of 1000 credits and `mcp`: the MCP SDK client connected as it (one per file, closed
 * before the server). The keyword and backlink tools need a data source to be created at all: DataForSEO is
 * configured at a closed local port.
 */
export const mcpTest = apiTest
  .withAccount({ credits: 1000 })
  .extend("mcp", { scope: "file" }, async ({ api, acct }, { onCleanup }): Promise<Client> => {
    stubDataForSeoEnv();
    const client = new Client({ name: "mcp-test", version: "1.0.0" });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${api.url}/api/v1/mcp`), {
        requestInit: { headers: acct.headers },
      }),
    );
    onCleanup(() => client.close().catch(() => {}));
    return client;
  });
