import { DomainTimelinePanel } from "@/components/overview/domain-timeline-panel";
import { listDomains } from "@/lib/accounts/domains";
import { listConnections } from "@/lib/connections/manage";
import { getDomainTimeline } from "@/lib/dashboard/domain-timeline";
import type { Db } from "@/lib/db/client";

/** The overview's joined series for the account's first domain (or `domain` when it is one of its). */
export async function DomainTimelineSection({
  db,
  accountId,
  domain,
}: {
  db: Db;
  accountId: string;
  domain?: string;
}) {
  const domains = await listDomains(db, accountId);
  const chosen = domains.find((d) => d.hostname === domain) ?? domains[0];
  if (!chosen) return null;
  const [timeline, connections] = await Promise.all([
    getDomainTimeline(db, process.env, accountId, { id: chosen.id, hostname: chosen.hostname }),
    listConnections(db, process.env, accountId),
  ]);
  const offered = (provider: "google" | "plausible") =>
    connections.some((c) => c.provider === provider && c.available);
  return (
    <DomainTimelinePanel
      timeline={timeline}
      offered={{ search: offered("google"), analytics: offered("google") || offered("plausible") }}
    />
  );
}
