export * from "./accounts";
export * from "./auth";
export * from "./credits";
export * from "./jobs";
export * from "./rate-limits";
export * from "./tracking";
export * from "./visibility";
export * from "./webgraph";
