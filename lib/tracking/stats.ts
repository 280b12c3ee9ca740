// Moved to lib/tracking/reports/stats; this path stays for callers not yet updated.
export * from "./reports/stats";
