export * from "./analytics-data";
export * from "./config";
export * from "./oauth";
export * from "./search-console";
