import type { DbOrTx } from "@/lib/db/client";
import type { ConnectionProvider, ConnectionStatus } from "@/lib/db/schema";
import { AppError } from "@/lib/errors";
import { normalizeHostname } from "@/lib/hostname";
import { readGoogleConfig } from "@/lib/providers/google";
import { PLAUSIBLE_DEFAULT_BASE_URL } from "@/lib/providers/plausible/client";
import { readDataKey } from "@/lib/secrets/data-encryption";
import { requireDomain } from "./google";
import {
  deleteConnection,
  type Env,
  findConnection,
  requireDataKey,
  saveConnection,
  updateSettings,
} from "./store";

/** What the Connections page shows of one provider; never a secret. */
export interface ConnectionView {
  provider: ConnectionProvider;
  /** Whether this server can make the connection at all (OAuth client, data key). */
  available: boolean;
  /** What the operator must set when it cannot. */
  missing: string[];
  state: "not_connected" | ConnectionStatus;
  label: string | null;
  lastError: string | null;
  connectedAt: string | null;
  ga4Properties: Record<string, string>;
  baseUrl: string | null;
}

function dataKeyReady(env: Env): boolean {
  try {
    return readDataKey(env) !== null;
  } catch {
    return false;
  }
}

export async function listConnections(db: DbOrTx, env: Env, accountId: string): Promise<ConnectionView[]> {
  const keyReady = dataKeyReady(env);
  const views: ConnectionView[] = [];
  for (const provider of ["google", "plausible"] as const) {
    const row = await findConnection(db, accountId, provider);
    const missing = [
      ...(keyReady ? [] : ["DATA_ENCRYPTION_KEY"]),
      ...(provider === "google" && !readGoogleConfig(env)
        ? ["GOOGLE_CLIENT_ID", "GOOGLE_CLIENT_SECRET"]
        : []),
    ];
    views.push({
      provider,
      available: missing.length === 0,
      missing,
      state: row?.status ?? "not_connected",
      label: row?.label ?? null,
      lastError: row?.lastError ?? null,
      connectedAt: row?.createdAt.toISOString() ?? null,
      ga4Properties: row?.settings.ga4Properties ?? {},
      baseUrl: row?.settings.baseUrl ?? null,
    });
  }
  return views;
}

/** A Plausible Stats API key and its instance's origin (https only, public addresses at query time). */
export async function connectPlausible(
  db: DbOrTx,
  env: Env,
  accountId: string,
  input: { apiKey: string; baseUrl?: string },
): Promise<void> {
  requireDataKey(env);
  const apiKey = input.apiKey.trim();
  if (apiKey.length < 16 || apiKey.length > 200 || /\s/.test(apiKey)) {
    throw new AppError(
      "VALIDATION_ERROR",
      "The Plausible API key looks wrong: paste the key from Settings → API keys.",
      {
        field: "apiKey",
      },
    );
  }
  let baseUrl = PLAUSIBLE_DEFAULT_BASE_URL;
  if (input.baseUrl?.trim()) {
    let url: URL;
    try {
      url = new URL(input.baseUrl.trim());
    } catch {
      throw new AppError(
        "VALIDATION_ERROR",
        "The Plausible address must be a URL such as https://plausible.example.com.",
        {
          field: "baseUrl",
        },
      );
    }
    const local = url.hostname === "127.0.0.1" || url.hostname === "localhost";
    if ((url.protocol !== "https:" && !(url.protocol === "http:" && local)) || url.username || url.password) {
      throw new AppError(
        "VALIDATION_ERROR",
        "The Plausible address must be an https:// URL without credentials.",
        {
          field: "baseUrl",
        },
      );
    }
    baseUrl = url.origin;
  }
  await saveConnection(db, env, {
    accountId,
    provider: "plausible",
    secret: { apiKey },
    label: new URL(baseUrl).host,
    settings: { baseUrl },
  });
}

/** The GA4 property ("properties/123456789" or the bare number) that measures a registered domain; empty clears. */
export async function setGa4Property(
  db: DbOrTx,
  accountId: string,
  input: { domain: string; property: string },
): Promise<void> {
  const host = normalizeHostname(input.domain);
  const domain = await requireDomain(db, accountId, host ?? input.domain);
  const row = await findConnection(db, accountId, "google");
  if (!row) throw new AppError("VALIDATION_ERROR", "Connect Google first.", { reason: "not_connected" });
  const raw = input.property.trim();
  const ga4Properties = { ...(row.settings.ga4Properties ?? {}) };
  if (raw === "") delete ga4Properties[domain];
  else {
    const m = /^(?:properties\/)?(\d{1,20})$/.exec(raw);
    if (!m) {
      throw new AppError(
        "VALIDATION_ERROR",
        "A GA4 property ID is a number such as 123456789 (Admin → Property details).",
        {
          field: "property",
        },
      );
    }
    ga4Properties[domain] = `properties/${m[1]}`;
  }
  await updateSettings(db, row, { ...row.settings, ga4Properties });
}

export async function disconnectPlausible(db: DbOrTx, accountId: string): Promise<boolean> {
  return deleteConnection(db, accountId, "plausible");
}
