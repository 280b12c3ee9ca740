import type { Metadata } from "next";
import Link from "next/link";
import { KeyPairs } from "@/components/dashboard/key-pairs";
import { CreateLegacyTokenForm, RevokeTokenButton } from "@/components/dashboard/webhooks";
import { Card, PageHeader } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { LocalTime } from "@/components/ui/local-time";
import { canManageKeys } from "@/lib/accounts/accounts";
import { requireActor } from "@/lib/auth/session";
import { keyPairsFor } from "@/lib/dashboard/keys";
import { requestOrigin } from "@/lib/dashboard/origin";
import { legacyTokensFor } from "@/lib/dashboard/webhooks";

export const metadata: Metadata = { title: "API keys" };

export default async function KeysPage() {
  const { db, actor } = await requireActor();
  const pairs = await keyPairsFor(db, actor);
  const origin = await requestOrigin();
  const tokens = await legacyTokensFor(db, actor);
  const canManage = canManageKeys(actor.role);
  return (
    <>
      <PageHeader
        title="API keys"
        description="Named key pairs: one per integration, each with its own rate limit. Send both headers with every /api/v1 request and with the MCP endpoint."
      >
        <Link href="/docs/api" className="btn-secondary">
          API docs
        </Link>
      </PageHeader>
      <Card title="Key pairs">
        <KeyPairs pairs={pairs} origin={origin} canManage={canManage} />
        {canManage ? null : (
          <div className="mt-4">
            <EmptyState>Only an owner or admin can create, roll or revoke key pairs.</EmptyState>
          </div>
        )}
        <p className="mt-4 text-sm text-slate-600">
          A secret (x-api-secret) is shown only when its pair is created or rolled. Keep it out of client-side
          code and public repositories. Rolling a pair can keep the old one working for up to 7 days, so every
          integration switches without downtime; revoking stops a pair within seconds.
        </p>
        <p className="mt-2 text-sm text-slate-700">
          The{" "}
          <Link href="/docs/api" className="link">
            API docs
          </Link>{" "}
          show a request and a response for every endpoint, with copyable curl, JavaScript and Python
          {pairs.length > 0
            ? " that use your first active key id"
            : " that use your key id once you create one"}
          .
        </p>
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
