// The trusted-proxy rule lives in lib/forwarded.ts, below every layer: the HTTP server resolves clients with it,
// and tracking reads forwarded-for lists in access logs with the same rule.
export * from "@/lib/forwarded";
