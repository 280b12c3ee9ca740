// Moved to lib/tracking/ingest/event-schema; this path stays for callers not yet updated.
export * from "./ingest/event-schema";
