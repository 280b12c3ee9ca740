// Moved to lib/tracking/ingest/log-upload; this path stays for callers not yet updated.
export * from "./ingest/log-upload";
