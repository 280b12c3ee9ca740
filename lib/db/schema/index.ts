export * from "./accounts";
export * from "./credits";
export * from "./jobs";
export * from "./rate-limits";
