import type { Metadata } from "next";
import { InviteForm } from "@/components/dashboard/invite-form";
import { Card, PageHeader } from "@/components/ui/card";
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
        <div className="overflow-x-auto">
          <table className="data-table">
            <thead>
              <tr>
                <th scope="col">Email</th>
                <th scope="col">Role</th>
              </tr>
            </thead>
            <tbody>
              {members.map((m) => (
                <tr key={m.userId}>
                  <td>
                    {m.email}
                    {m.userId === actor.userId ? <span className="text-slate-600"> (you)</span> : null}
                  </td>
                  <td>{m.role}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </Card>
      <Card title="Invite someone" className="mt-4">
        {canManageKeys(actor.role) ? (
          <InviteForm canInviteOwner={actor.role === "owner"} />
        ) : (
          <p className="text-sm text-slate-700">Only an owner or admin can invite people.</p>
        )}
      </Card>
    </>
  );
}
