// Moved to lib/tracking/ingest/ingest-visits; this path stays for callers not yet updated.
export * from "./ingest/ingest-visits";
