import type { Metadata } from "next";
import {
  CreateWebhookForm,
  EndpointActions,
  RedeliverButton,
  ThresholdForm,
} from "@/components/dashboard/webhooks";
import { Card, PageHeader, StatusBadge } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { canManageKeys } from "@/lib/accounts/accounts";
import { requireActor } from "@/lib/auth/session";
import { formatDateTime } from "@/lib/dashboard/format";
import { webhooksOverview } from "@/lib/dashboard/webhooks";

export const metadata: Metadata = { title: "Webhooks" };

const deliveryStatus = (s: string) => (s === "succeeded" ? "completed" : s);

export default async function WebhooksPage() {
  const { db, actor } = await requireActor();
  const { endpoints, creditsLowThreshold } = await webhooksOverview(db, actor);
  const canManage = canManageKeys(actor.role);
  return (
    <>
      <PageHeader
        title="Webhooks"
        description="Signed events (Standard Webhooks) sent to your endpoints: job.completed, job.failed, citation.detected, credits.low, webhook.test. Verify the webhook-signature header with your endpoint's secret."
      />
      <div className="space-y-6">
        {canManage ? (
          <Card title="Add an endpoint">
            <CreateWebhookForm />
          </Card>
        ) : null}
        {endpoints.length === 0 ? (
          <EmptyState>No webhook endpoints yet.</EmptyState>
        ) : (
          endpoints.map((e) => (
            <Card key={e.id} title={e.url}>
              <p className="text-sm text-slate-700">
                Events:{" "}
                {e.events.map((t) => (
                  <code key={t} className="mr-2">
                    {t}
                  </code>
                ))}
                {e.secretRotatedUntil
                  ? ` · previous secret signs too until ${formatDateTime(new Date(e.secretRotatedUntil))}`
                  : ""}
              </p>
              {!e.enabled ? (
                <p role="alert" className="mt-2 rounded-md bg-red-50 p-3 text-sm text-red-800">
                  Disabled {e.disabledAt ? formatDateTime(new Date(e.disabledAt)) : ""}: {e.disabledReason}
                </p>
              ) : null}
              <div className="mt-3">
                <EndpointActions id={e.id} enabled={e.enabled} canManage={canManage} />
              </div>
              <h3 className="mt-4 text-sm font-semibold text-slate-900">Delivery log</h3>
              {e.deliveries.length === 0 ? (
                <p className="mt-1 text-sm text-slate-600">Nothing sent yet.</p>
              ) : (
                <div className="mt-2 overflow-x-auto">
                  <table className="min-w-full text-left text-sm">
                    <thead className="text-slate-600">
                      <tr>
                        <th className="py-1 pr-3 font-medium">Event</th>
                        <th className="py-1 pr-3 font-medium">Status</th>
                        <th className="py-1 pr-3 font-medium">Response</th>
                        <th className="py-1 pr-3 font-medium">Latency</th>
                        <th className="py-1 pr-3 font-medium">Attempt</th>
                        <th className="py-1 pr-3 font-medium">Last attempt</th>
                        <th className="py-1 pr-3 font-medium">Next retry</th>
                        <th className="py-1 font-medium">
                          <span className="sr-only">Actions</span>
                        </th>
                      </tr>
                    </thead>
                    <tbody>
                      {e.deliveries.map((d) => (
                        <tr key={d.id} className="border-t border-slate-100 align-top">
                          <td className="py-1 pr-3">
                            <code>{d.eventType}</code>
                            <div className="font-mono text-xs text-slate-500">{d.eventId}</div>
                          </td>
                          <td className="py-1 pr-3">
                            <StatusBadge status={deliveryStatus(d.status)} />
                          </td>
                          <td className="py-1 pr-3" title={d.error ?? undefined}>
                            {d.responseStatus ?? (d.error ? "no answer" : "—")}
                          </td>
                          <td className="py-1 pr-3">{d.latencyMs !== null ? `${d.latencyMs} ms` : "—"}</td>
                          <td className="py-1 pr-3">{d.attempts}</td>
                          <td className="py-1 pr-3">
                            {d.lastAttemptAt ? formatDateTime(new Date(d.lastAttemptAt)) : "—"}
                          </td>
                          <td className="py-1 pr-3">
                            {d.nextAttemptAt ? formatDateTime(new Date(d.nextAttemptAt)) : "—"}
                          </td>
                          <td className="py-1">
                            {canManage && d.status !== "pending" ? (
                              <RedeliverButton id={e.id} deliveryId={d.id} />
                            ) : null}
                          </td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                </div>
              )}
            </Card>
          ))
        )}
        <Card title="Low balance event">
          {canManage ? (
            <ThresholdForm threshold={creditsLowThreshold} />
          ) : (
            <p className="text-sm text-slate-700">
              credits.low fires when a charge takes the balance under {creditsLowThreshold} credits.
            </p>
          )}
        </Card>
      </div>
    </>
  );
}
