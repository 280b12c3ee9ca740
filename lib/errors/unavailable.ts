/**
 * Why something cannot run on this server: the closed list that `GET /capabilities` answers in `reason` and a
 * refused tool's 400 carries in `details.reason`. Each has a sentence a customer may read (no settings, no
 * commands); operators find what to set on the dashboard's operator page.
 */
export const UNAVAILABLE_REASONS = [
  "not_built",
  "engine_not_configured",
  "provider_not_configured",
  "browser_missing",
  "not_connected",
  "connections_not_configured",
  "payments_not_configured",
  "email_not_configured",
] as const;

export type UnavailableReason = (typeof UNAVAILABLE_REASONS)[number];

export const UNAVAILABLE_REASON_TEXT: Record<UnavailableReason, string> = {
  not_built: "This analysis is not offered on this service yet.",
  engine_not_configured: "The AI engine asked for is not offered on this service yet.",
  provider_not_configured: "The data source this needs is not offered on this service yet.",
  browser_missing: "Browser-based measurement is not offered on this service yet.",
  not_connected: "Connect your account first (Connections).",
  connections_not_configured: "Connecting this data source is not offered on this service yet.",
  payments_not_configured: "Buying credits online is not open yet.",
  email_not_configured: "Sending email is not offered on this service yet.",
};

export function isUnavailableReason(value: unknown): value is UnavailableReason {
  return typeof value === "string" && (UNAVAILABLE_REASONS as readonly string[]).includes(value);
}
