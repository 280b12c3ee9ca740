export * from "./backlinks";
export * from "./client";
export * from "./keywords";
