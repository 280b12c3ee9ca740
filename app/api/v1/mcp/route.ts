import { methods } from "@/lib/api/handler";
import { implement } from "@/lib/api/implement";
import { mcpRoute } from "@/lib/mcp/contract";
import { countMcpMessages, handleMcpRequest } from "@/lib/mcp/server";

// POST /api/v1/mcp: the hosted MCP server (stateless Streamable HTTP); same key, rate limit and billing as REST.
// MCP clients probe GET (a standalone event stream) and DELETE (session end) as part of the protocol; this
// stateless server answers both 405 as the MCP transport allows, counted per IP rather than against the key.
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods(
  {
    // Each message of a JSON-RPC batch counts against the key's rate limit.
    POST: implement(
      mcpRoute,
      async ({ req, db, auth, requestId }) =>
        handleMcpRequest(req, { db, accountId: auth.accountId, apiKeyId: auth.apiKeyId, requestId }),
      { weight: countMcpMessages },
    ),
  },
  { public: true },
);

// wait_for_job may hold a request for up to 60 s.
export const maxDuration = 90;
