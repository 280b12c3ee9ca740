// Moved to lib/tracking/reports/read-cache; this path stays for callers not yet updated.
export * from "./reports/read-cache";
