import type { Metadata } from "next";
import { AddDomainForm } from "@/components/dashboard/add-domain-form";
import { RemoveDomainForm } from "@/components/dashboard/team-controls";
import { VerifyDomain } from "@/components/dashboard/verify-domain";
import { Card, PageHeader } from "@/components/ui/card";
import { CopyButton } from "@/components/ui/copy-button";
import { EmptyState } from "@/components/ui/empty-state";
import { LocalTime } from "@/components/ui/local-time";
import { canManageKeys } from "@/lib/accounts/accounts";
import { domainView, listDomains } from "@/lib/accounts/domains";
import { requireActor } from "@/lib/auth/session";
import { requestOrigin } from "@/lib/dashboard/origin";
import { trackingSnippets } from "@/lib/dashboard/snippets";

export const metadata: Metadata = { title: "Domains" };

function CopyRow({ label, value, copyLabel }: { label: string; value: string; copyLabel: string }) {
  return (
    <div className="mt-1 flex flex-wrap items-center gap-2">
      <span className="text-slate-600">{label}:</span>
      <code className="min-w-0 break-all rounded bg-slate-100 px-1.5 py-0.5 font-mono">{value}</code>
      <CopyButton text={value} label="Copy" ariaLabel={copyLabel} />
    </div>
  );
}

export default async function DomainsPage() {
  const { db, actor } = await requireActor();
  const [domains, origin] = await Promise.all([listDomains(db, actor.accountId), requestOrigin()]);
  const manager = canManageKeys(actor.role);
  return (
    <>
      <PageHeader
        title="Domains"
        description="Bot statistics and citations are served only for domains registered on the account. Paste a domain or any URL of the site; www. is dropped (its visits count for the domain)."
      />
      <Card title="Add a domain">
        {manager ? <AddDomainForm /> : <EmptyState>Only an owner or admin can add domains.</EmptyState>}
      </Card>
      <div className="mt-4 space-y-4">
        {domains.length === 0 ? (
          <EmptyState>No domains yet.</EmptyState>
        ) : (
          domains.map((d) => (
            <Card
              key={d.id}
              title={d.hostname}
              action={
                <span
                  className={`text-sm font-medium ${d.verifiedAt ? "text-emerald-800" : "text-amber-900"}`}
                >
                  {d.verifiedAt ? `Verified (${d.verificationMethod ?? "ok"})` : "Not verified"}
                </span>
              }
            >
              <p className="text-sm text-slate-600">
                Added <LocalTime value={d.createdAt} /> ·{" "}
                <a
                  className="font-medium text-teal-800 underline"
                  href={`/dashboard/domains/${encodeURIComponent(d.hostname)}/audits`}
                >
                  Scheduled audits
                </a>
              </p>
              {!d.verifiedAt ? (
                <div className="mt-3 text-sm text-slate-800">
                  <p className="font-medium">Verify ownership with one of:</p>
                  <ul className="mt-1 space-y-3">
                    <li>
                      <p>A DNS TXT record</p>
                      <CopyRow
                        label="Record name"
                        value={domainView(d).verification.dnsTxt.name}
                        copyLabel={`Copy the record name for ${d.hostname}`}
                      />
                      <CopyRow
                        label="Value"
                        value={d.verificationToken}
                        copyLabel={`Copy the verification token for ${d.hostname}`}
                      />
                    </li>
                    <li>
                      <p>or a file containing the same value at</p>
                      <CopyRow
                        label="File URL"
                        value={domainView(d).verification.file.url}
                        copyLabel={`Copy the file URL for ${d.hostname}`}
                      />
                    </li>
                  </ul>
                  {manager ? <VerifyDomain domain={d.hostname} /> : null}
                </div>
              ) : null}
              <details className="mt-3">
                <summary className="cursor-pointer text-sm font-medium text-slate-900">
                  Tracking snippets
                </summary>
                <p className="mt-2 text-sm text-slate-700">
                  Send bot and AI-referred visits from your server (keep the secret there). Visits count from
                  the first minute, verified or not.
                </p>
                {trackingSnippets(origin, d.hostname).map((s) => (
                  <div key={s.title} className="mt-3">
                    <div className="flex items-center justify-between gap-2">
                      <h3 className="text-sm font-semibold text-slate-900">{s.title}</h3>
                      <CopyButton text={s.code} label={`Copy ${s.title}`} />
                    </div>
                    <pre className="mt-1 max-h-80 overflow-auto rounded bg-slate-900 p-3 text-xs text-slate-100">
                      {s.code}
                    </pre>
                  </div>
                ))}
              </details>
              {manager ? <RemoveDomainForm domain={d.hostname} /> : null}
            </Card>
          ))
        )}
      </div>
    </>
  );
}
