/** The prose part of docs/api.md: what the service decided where the contract is silent. */
export const DECISIONS = [
  "## Headers",
  "",
  "- Requests: `x-api-key` and `x-api-secret`, or `Authorization: Bearer <key>:<secret>` (MCP clients); `Idempotency-Key` on tool POSTs; `Content-Type: application/json` on bodies.",
  "- Every answer: `X-Request-Id` (equal to the envelope's `requestId`), `RateLimit-Limit`, `RateLimit-Remaining`, `RateLimit-Reset`, `RateLimit-Policy`; `Retry-After` with 429; `Allow` with 405 and OPTIONS; `Location` with 202; `Idempotent-Replayed: true` on a replay; `Strict-Transport-Security` in production.",
  "",
  "## Decisions where the specification is silent",
  "",
  "- **Every edge is the envelope.** `GET /api/v1` itself and unknown paths are a JSON 404; a wrong method is a JSON 405 with `Allow`, after authentication (a request without credentials is 401 first); `OPTIONS` answers `{ allow: [...] }` without credentials; a trailing slash is served like the path without it; `HTTPS_REQUIRED` (403) answers plain-HTTP requests in production. Each of these counts against the key's or the IP's limit and carries the rate headers.",
  "- **MCP protocol probes.** `GET` and `DELETE /api/v1/mcp` (a client asking for a standalone stream or ending a session) are 405 as the MCP transport allows; they count against the IP's limit, not the key's.",
  "- **Enum values** (`engine`, `engines`, `strategy`) are accepted in any letter case and stored and answered in their canonical spelling (`chatgpt` → `ChatGPT`).",
  "- **Idempotency.** A replay of the same `Idempotency-Key` with the same body returns the original 202 (same `jobId`, header `Idempotent-Replayed: true`) and charges nothing; the same key with a different body is `VALIDATION_ERROR` (`reason: idempotency_key_reused`). MCP billed tools take the same keys as an `idempotencyKey` argument: a key means the same request on either edge.",
  "- **Costs** are charged when the job is created, in one transaction with the job; a failed job (tool error, timeout, interruption, queue timeout) is refunded once.",
  "- **Pending jobs survive a restart** and run when a runner is back; a job that was processing when its worker died is failed as `INTERRUPTED` and refunded when its lease expires.",
  "- **Tools not built on this server yet** accept their real input and cost, then fail with `TOOL_UNAVAILABLE` and are refunded, so clients can integrate now.",
  "- **Engines not configured** (no provider key) are refused before any charge with `VALIDATION_ERROR` naming the configured engines and the variable to set, once the engine tools are built.",
  "- **Query parameters** that are unknown or repeated are refused instead of ignored; integer bounds are enforced, never clamped.",
];
