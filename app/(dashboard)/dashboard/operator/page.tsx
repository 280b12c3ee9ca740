import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { Card, PageHeader } from "@/components/ui/card";
import { isOperator } from "@/lib/accounts/operators";
import { requireActor } from "@/lib/auth/session";
import { listIntegrations } from "@/lib/capabilities";
import { readServerEnv } from "@/lib/tools/server-env";

export const metadata: Metadata = { title: "Operator" };

// For the people who run the service (flagged with `npm run admin -- operator --email …`); anyone else gets the
// dashboard's 404, so the page's existence is not advertised.
export default async function OperatorPage() {
  const { db, actor } = await requireActor();
  if (!(await isOperator(db, actor.userId))) notFound();
  const integrations = await listIntegrations(db, readServerEnv());
  const missing = integrations.filter((i) => !i.configured).length;
  return (
    <>
      <PageHeader
        title="Operator"
        description={`Every integration of this server, configured or not, and what to set. ${missing} of ${integrations.length} are not configured. Customers never see this page; they see "not offered on this service yet" where an integration is missing.`}
      />
      <Card>
        <ul className="divide-y divide-slate-100" data-testid="integrations">
          {integrations.map((i) => (
            <li
              key={i.id}
              className="grid gap-1 py-3 text-sm sm:grid-cols-[12rem_1fr]"
              data-testid={`integration-${i.id}`}
            >
              <div>
                <p className="font-medium text-slate-900">{i.name}</p>
                <p className={i.configured ? "text-emerald-800" : "text-amber-900"}>
                  {i.configured ? "Configured" : "Not configured"}
                </p>
              </div>
              <div className="min-w-0 text-slate-700">
                <p>Enables {i.enables}.</p>
                {i.settings.length > 0 ? (
                  <p className="mt-1">
                    Set{" "}
                    {i.settings.map((s, n) => (
                      <span key={s}>
                        {n > 0 ? " and " : ""}
                        <code className="break-all font-mono text-xs">{s}</code>
                      </span>
                    ))}
                    .
                  </p>
                ) : null}
                {i.how ? (
                  <p className="mt-1">
                    To provide it: <code className="break-all font-mono text-xs">{i.how}</code>.
                  </p>
                ) : null}
                {i.optional && i.optional.length > 0 ? (
                  <p className="mt-1 text-slate-600">
                    Optional:{" "}
                    {i.optional.map((s, n) => (
                      <span key={s}>
                        {n > 0 ? ", " : ""}
                        <code className="break-all font-mono text-xs">{s}</code>
                      </span>
                    ))}
                    .
                  </p>
                ) : null}
              </div>
            </li>
          ))}
        </ul>
      </Card>
      <p className="mt-4 text-sm text-slate-700">
        Settings are read when the server starts (restart it after a change); Chromium and the web graph are
        checked as jobs are created. Operators are flagged with{" "}
        <code className="font-mono text-xs">npm run admin -- operator --email &lt;address&gt;</code> and
        unflagged with <code className="font-mono text-xs">unoperator</code>.
      </p>
    </>
  );
}
