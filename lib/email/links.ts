/**
 * The public origin that links in emails point to: PUBLIC_BASE_URL, else the address the server listens on.
 * Never a request's Host header, which a client chooses (a reset link must not lead to another site).
 */
export function publicBaseUrl(
  env: { PUBLIC_BASE_URL?: string; HOST?: string; PORT?: string } = process.env as Record<string, string>,
): string {
  const configured = env.PUBLIC_BASE_URL?.trim();
  const base = configured || `http://${env.HOST || "localhost"}:${env.PORT || "3000"}`;
  return base.replace(/\/+$/, "");
}

export const publicUrl = (path: string, env?: Parameters<typeof publicBaseUrl>[0]) =>
  `${publicBaseUrl(env)}${path}`;
