import type { Metadata } from "next";
import Link from "next/link";
import { RotateKey } from "@/components/dashboard/rotate-key";
import { CreateLegacyTokenForm, RevokeTokenButton } from "@/components/dashboard/webhooks";
import { Card, PageHeader } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { LocalTime } from "@/components/ui/local-time";
import { canManageKeys } from "@/lib/accounts/accounts";
import { requireActor } from "@/lib/auth/session";
import { requestOrigin } from "@/lib/dashboard/origin";
import { legacyTokensFor } from "@/lib/dashboard/webhooks";
import { getActiveKey } from "@/lib/keys/keys";

export const metadata: Metadata = { title: "API keys" };

export default async function KeysPage() {
  const { db, actor } = await requireActor();
  const key = await getActiveKey(db, actor.accountId);
  const origin = await requestOrigin();
  const tokens = await legacyTokensFor(db, actor);
  return (
    <>
      <PageHeader
        title="API keys"
        description="One active key pair per account. Send both headers with every /api/v1 request and with the MCP endpoint."
      >
        <Link href="/docs/api" className="btn-secondary">
          API docs
        </Link>
      </PageHeader>
      <Card title="Active key">
        {key ? (
          <dl className="grid gap-3 text-sm sm:grid-cols-3">
            <div>
              <dt className="text-slate-600">Key id (x-api-key)</dt>
              <dd className="mt-1 break-all font-mono text-slate-900" data-testid="active-key-id">
                {key.keyId}
              </dd>
            </div>
            <div>
              <dt className="text-slate-600">Created</dt>
              <dd className="mt-1 text-slate-900">
                <LocalTime value={key.createdAt} />
              </dd>
            </div>
            <div>
              <dt className="text-slate-600">Last used</dt>
              <dd className="mt-1 text-slate-900">
                {key.lastUsedAt ? <LocalTime value={key.lastUsedAt} /> : "Never"}
              </dd>
            </div>
          </dl>
        ) : (
          <EmptyState>This account has no active key yet.</EmptyState>
        )}
        <p className="mt-4 text-sm text-slate-600">
          The secret (x-api-secret) is shown only when a key is created. Keep it out of client-side code and
          public repositories.
        </p>
        <p className="mt-2 text-sm text-slate-700">
          The{" "}
          <Link href="/docs/api" className="link">
            API docs
          </Link>{" "}
          show a request and a response for every endpoint, with copyable curl, JavaScript and Python that use
          {key ? " this key id" : " your key id once you create one"}.
        </p>
        <div className="mt-4">
          {canManageKeys(actor.role) ? (
            <RotateKey origin={origin} hasKey={Boolean(key)} />
          ) : (
            <EmptyState>Only an owner or admin can rotate the key.</EmptyState>
          )}
        </div>
      </Card>
      <Card title="Legacy API tokens" className="mt-6">
        <p className="text-sm text-slate-700">
          For integrations of the older interface (<code>/api/auth/me</code>, <code>/api/tracking/*</code>,{" "}
          <code>/api/analytics/*</code>): send <code>Authorization: Bearer &lt;token&gt;</code>. A token is
          shown once, stored hashed, and shares the key pair&apos;s rate limit.{" "}
          <code>Bearer &lt;key&gt;:&lt;secret&gt;</code> works there too.
        </p>
        {tokens.length ? (
          <ul className="mt-3 divide-y divide-slate-100 text-sm">
            {tokens.map((t) => (
              <li key={t.id} className="flex flex-wrap items-center justify-between gap-2 py-2">
                <span>
                  <span className="font-medium text-slate-900">{t.name}</span>{" "}
                  <code className="text-slate-600">lt_{t.tokenId}_…</code>
                  <span className="ml-2 text-slate-600">
                    created <LocalTime value={t.createdAt} /> · last used{" "}
                    {t.lastUsedAt ? <LocalTime value={t.lastUsedAt} /> : "never"}
                    {t.revokedAt ? (
                      <>
                        {" "}
                        · revoked <LocalTime value={t.revokedAt} />
                      </>
                    ) : null}
                  </span>
                </span>
                {!t.revokedAt && canManageKeys(actor.role) ? <RevokeTokenButton id={t.id} /> : null}
              </li>
            ))}
          </ul>
        ) : (
          <p className="mt-3 text-sm text-slate-600">No legacy tokens.</p>
        )}
        {canManageKeys(actor.role) ? (
          <div className="mt-4">
            <CreateLegacyTokenForm origin={origin} />
          </div>
        ) : null}
      </Card>
    </>
  );
}
