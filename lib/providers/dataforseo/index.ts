export * from "./backlinks";
export * from "./client";
export * from "./keywords";
export * from "./serp";
