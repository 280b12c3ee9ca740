// Moved to lib/tracking/reports/citations-query; this path stays for callers not yet updated.
export * from "./reports/citations-query";
