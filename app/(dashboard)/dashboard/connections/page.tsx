import type { Metadata } from "next";
import { DisconnectButton, Ga4PropertyForm, PlausibleForm } from "@/components/connections/connection-forms";
import { Card, PageHeader } from "@/components/ui/card";
import { canManageKeys } from "@/lib/accounts/accounts";
import { listDomains } from "@/lib/accounts/domains";
import { requireActor } from "@/lib/auth/session";
import { listConnections } from "@/lib/connections/manage";
import { formatDateTime } from "@/lib/dashboard/format";

export const metadata: Metadata = { title: "Connections" };

const STATE_TEXT = {
  not_connected: "Not connected",
  active: "Connected",
  revoked: "Needs reconnecting",
} as const;

// Reads only the database: a revoked grant is shown as such, and nothing here calls Google or Plausible.
export default async function ConnectionsPage({
  searchParams,
}: {
  searchParams: Promise<{ error?: string; connected?: string }>;
}) {
  const { db, actor } = await requireActor();
  const sp = await searchParams;
  const [views, domains] = await Promise.all([
    listConnections(db, process.env, actor.accountId),
    listDomains(db, actor.accountId),
  ]);
  const manage = canManageKeys(actor.role);
  const google = views.find((v) => v.provider === "google")!;
  const plausible = views.find((v) => v.provider === "plausible")!;
  return (
    <>
      <PageHeader
        title="Connections"
        description="Your own search and analytics data, read through these connections by the overview and the API's search-console and analytics reads."
      />
      {sp.error ? (
        <p role="alert" className="mb-4 rounded-md bg-red-50 p-3 text-sm text-red-800">
          {sp.error.slice(0, 300)}
        </p>
      ) : sp.connected === "google" ? (
        <p role="status" className="mb-4 rounded-md bg-emerald-50 p-3 text-sm text-emerald-900">
          Google connected.
        </p>
      ) : null}
      <div className="grid gap-4">
        <Card title="Google Search Console and Analytics (GA4)">
          <p className="text-sm text-slate-700" data-testid="google-state">
            <span className="font-medium">{STATE_TEXT[google.state]}</span>
            {google.label ? ` as ${google.label}` : ""}
            {google.connectedAt ? ` · since ${formatDateTime(google.connectedAt)}` : ""}
          </p>
          {!google.available ? (
            <p className="mt-2 text-sm text-slate-600" data-testid="google-unoffered">
              Not offered on this service yet.
            </p>
          ) : null}
          {google.state === "revoked" ? (
            <p className="mt-2 text-sm text-amber-800">
              Google no longer accepts this connection{google.lastError ? ` (${google.lastError})` : ""}.
              Reads stop until you reconnect; nothing is retried meanwhile.
            </p>
          ) : null}
          {manage && google.available ? (
            <div className="mt-3 flex flex-wrap items-center gap-3">
              {google.state !== "active" ? (
                // A plain link: the consent round trip is a top-level navigation to Google and back.
                <a href="/api/dashboard/google/connect" className="btn-primary">
                  {google.state === "revoked" ? "Reconnect Google" : "Connect Google"}
                </a>
              ) : null}
              {google.state !== "not_connected" ? (
                <DisconnectButton provider="google" label="Google" />
              ) : null}
            </div>
          ) : null}
          {google.state === "active" && manage ? (
            <div className="mt-4 grid gap-3">
              <p className="text-sm text-slate-600">
                Search Console properties are found by domain. For traffic from GA4, give each domain's
                property ID (GA4 Admin → Property details).
              </p>
              {domains.map((d) => (
                <Ga4PropertyForm
                  key={d.hostname}
                  domain={d.hostname}
                  property={google.ga4Properties[d.hostname] ?? null}
                />
              ))}
            </div>
          ) : null}
        </Card>
        <Card title="Plausible Analytics">
          <p className="text-sm text-slate-700" data-testid="plausible-state">
            <span className="font-medium">{STATE_TEXT[plausible.state]}</span>
            {plausible.label ? ` at ${plausible.label}` : ""}
          </p>
          {plausible.state === "revoked" ? (
            <p className="mt-2 text-sm text-amber-800">
              Plausible refused the key{plausible.lastError ? ` (${plausible.lastError})` : ""}: save a new
              one.
            </p>
          ) : null}
          {!plausible.available ? (
            <p className="mt-2 text-sm text-slate-600" data-testid="plausible-unoffered">
              Not offered on this service yet.
            </p>
          ) : manage ? (
            <div className="mt-3 grid gap-3">
              <PlausibleForm baseUrl={plausible.baseUrl} />
              {plausible.state !== "not_connected" ? (
                <DisconnectButton provider="plausible" label="Plausible" />
              ) : null}
            </div>
          ) : null}
        </Card>
      </div>
    </>
  );
}
