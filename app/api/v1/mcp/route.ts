import { methods, withApiKey } from "@/lib/api/handler";
import { handleMcpRequest } from "@/lib/mcp/server";

// POST /api/v1/mcp: the hosted MCP server (stateless Streamable HTTP); same key, rate limit and billing as REST
export const { GET, POST, PUT, PATCH, DELETE } = methods({
  POST: withApiKey(async ({ req, db, auth }) => handleMcpRequest(req, { db, accountId: auth.accountId })),
});

// wait_for_job may hold a request for up to 60 s.
export const maxDuration = 90;
