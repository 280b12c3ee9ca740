import type { Metadata } from "next";
import Link from "next/link";
import { MonitorForm } from "@/components/dashboard/monitor-form";
import { NoDomains } from "@/components/dashboard/no-domains";
import { Card, PageHeader } from "@/components/ui/card";
import { canManageKeys } from "@/lib/accounts/accounts";
import { requireActor } from "@/lib/auth/session";
import { MONITOR_FORM_LIMITS, monitorFormOptions } from "@/lib/dashboard/monitors";

export const metadata: Metadata = { title: "New monitor" };

export default async function NewMonitorPage() {
  const { db, actor } = await requireActor();
  const options = await monitorFormOptions(db, actor);
  if (options.domains.length === 0) return <NoDomains title="New monitor" />;
  return (
    <>
      <PageHeader
        title="New monitor"
        description="Choose the prompts to track, the engines and how often; the cost of a run and of a month is shown before you save."
      >
        <Link href="/dashboard/monitors" className="btn-secondary">
          All monitors
        </Link>
      </PageHeader>
      <Card>
        {canManageKeys(actor.role) ? (
          <MonitorForm domains={options.domains} engines={options.engines} limits={MONITOR_FORM_LIMITS} />
        ) : (
          <p className="text-sm text-slate-700">
            Only an owner or admin of the account can create a monitor.
          </p>
        )}
      </Card>
    </>
  );
}
