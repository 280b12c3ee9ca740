import Link from "next/link";
import { DomainTimelinePanel } from "@/components/overview/domain-timeline-panel";
import { listDomains } from "@/lib/accounts/domains";
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
  const timeline = await getDomainTimeline(db, process.env, accountId, {
    id: chosen.id,
    hostname: chosen.hostname,
  });
  return (
    <>
      <DomainTimelinePanel timeline={timeline} />
      <p className="mt-1 text-xs text-slate-600">
        Search and analytics come from your{" "}
        <Link href="/dashboard/connections" className="link">
          connections
        </Link>
        .
      </p>
    </>
  );
}
