import type { Metadata } from "next";
import { InviteForm } from "@/components/dashboard/invite-form";
import { Card, PageHeader } from "@/components/ui/card";
import { DataTable } from "@/components/ui/data-table";
import { EmptyState } from "@/components/ui/empty-state";
import { canManageKeys, getMembers } from "@/lib/accounts/accounts";
import { requireActor } from "@/lib/auth/session";

export const metadata: Metadata = { title: "Members" };

export default async function MembersPage() {
  const { db, actor } = await requireActor();
  const members = await getMembers(db, actor.accountId);
  return (
    <>
      <PageHeader
        title="Members"
        description="Owners and admins rotate keys, manage domains and invite people; members view data and launch tools."
      />
      <Card title="People on this account">
        <DataTable
          columns={[
            {
              header: "Email",
              cell: (m) => (
                <>
                  {m.email}
                  {m.userId === actor.userId ? <span className="text-slate-600"> (you)</span> : null}
                </>
              ),
            },
            { header: "Role", cell: (m) => m.role },
          ]}
          rows={members}
          rowKey={(m) => m.userId}
          empty="No one yet."
        />
      </Card>
      <Card title="Invite someone" className="mt-4">
        {canManageKeys(actor.role) ? (
          <InviteForm canInviteOwner={actor.role === "owner"} />
        ) : (
          <EmptyState>Only an owner or admin can invite people.</EmptyState>
        )}
      </Card>
    </>
  );
}
