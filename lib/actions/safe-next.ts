/** Only same-site paths: "/x" but never "//host" or "/\host"; anything else goes to the dashboard. */
export function safeNext(value: unknown): string {
  const next = typeof value === "string" ? value : "";
  return /^\/(?![/\\])/.test(next) ? next : "/dashboard";
}
