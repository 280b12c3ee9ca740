import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { MonitorForm } from "@/components/dashboard/monitor-form";
import { Card, PageHeader } from "@/components/ui/card";
import { canManageKeys } from "@/lib/accounts/accounts";
import { requireActor } from "@/lib/auth/session";
import { FormError } from "@/lib/dashboard/errors";
import { getMonitorAs, MONITOR_FORM_LIMITS, monitorFormOptions } from "@/lib/dashboard/monitors";

export const metadata: Metadata = { title: "Edit monitor" };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export default async function EditMonitorPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  if (!UUID.test(id)) notFound();
  const { db, actor } = await requireActor();
  const monitor = await getMonitorAs(db, actor, id).catch((err) => {
    if (err instanceof FormError) return null;
    throw err;
  });
  if (!monitor) notFound();
  const options = await monitorFormOptions(db, actor);
  const label = monitor.name ?? monitor.domain;
  return (
    <>
      <PageHeader
        title={`Edit ${label}`}
        description="Changes apply from the next run; past runs keep their settings."
      >
        <Link href={`/dashboard/monitors/${monitor.id}`} className="btn-secondary">
          Back to the report
        </Link>
      </PageHeader>
      <Card>
        {canManageKeys(actor.role) ? (
          <MonitorForm
            domains={options.domains}
            engines={options.engines}
            limits={MONITOR_FORM_LIMITS}
            initial={{
              id: monitor.id,
              domain: monitor.domain,
              name: monitor.name,
              prompts: monitor.prompts,
              competitors: monitor.competitors,
              brandNames: monitor.brandNames,
              engines: monitor.engines,
              samples: monitor.samples,
              schedule: monitor.schedule,
              monthlyCreditCap: monitor.monthlyCreditCap,
            }}
          />
        ) : (
          <p className="text-sm text-slate-700">
            Only an owner or admin of the account can change a monitor.
          </p>
        )}
      </Card>
    </>
  );
}
