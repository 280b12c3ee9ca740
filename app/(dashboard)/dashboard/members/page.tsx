import type { Metadata } from "next";
import { InviteForm } from "@/components/dashboard/invite-form";
import { MemberRoleForm, RemoveMemberForm, RevokeInviteForm } from "@/components/dashboard/team-controls";
import { Card, PageHeader } from "@/components/ui/card";
import { DataTable } from "@/components/ui/data-table";
import { EmptyState } from "@/components/ui/empty-state";
import { LocalTime } from "@/components/ui/local-time";
import { canManageKeys, getMembers } from "@/lib/accounts/accounts";
import { requireActor } from "@/lib/auth/session";
import { listPendingInvites } from "@/lib/dashboard/team";

export const metadata: Metadata = { title: "Members" };

export default async function MembersPage() {
  const { db, actor } = await requireActor();
  const manager = canManageKeys(actor.role);
  const [members, pending] = await Promise.all([
    getMembers(db, actor.accountId),
    manager ? listPendingInvites(db, actor) : Promise.resolve([]),
  ]);
  const owners = members.filter((m) => m.role === "owner").length;
  // What the actor may change: managers change admins and members; only owners change owners.
  const mayChange = (role: string) => manager && (actor.role === "owner" || role !== "owner");
  const isLastOwner = (role: string) => role === "owner" && owners <= 1;
  return (
    <>
      <PageHeader
        title="Members"
        description="Owners and admins rotate keys, manage domains and invite people; members view data and launch tools. The account always keeps at least one owner."
      />
      <Card title="People on this account">
        <DataTable
          label="People on this account"
          columns={[
            {
              header: "Email",
              cell: (m) => (
                <>
                  <span className="break-all">{m.email}</span>
                  {m.userId === actor.userId ? <span className="text-slate-600"> (you)</span> : null}
                </>
              ),
            },
            {
              header: "Role",
              cell: (m) =>
                mayChange(m.role) && !isLastOwner(m.role) ? (
                  <MemberRoleForm
                    userId={m.userId}
                    email={m.email}
                    role={m.role}
                    canMakeOwner={actor.role === "owner"}
                  />
                ) : (
                  <>
                    {m.role}
                    {isLastOwner(m.role) ? <span className="text-slate-600"> (last owner)</span> : null}
                  </>
                ),
            },
            ...(manager
              ? [
                  {
                    header: <span className="sr-only">Actions</span>,
                    cell: (m: (typeof members)[number]) =>
                      mayChange(m.role) && !isLastOwner(m.role) ? (
                        <RemoveMemberForm userId={m.userId} email={m.email} />
                      ) : null,
                  },
                ]
              : []),
          ]}
          rows={members}
          rowKey={(m) => m.userId}
          empty="No one yet."
        />
      </Card>
      <Card title="Invite someone" className="mt-4">
        {manager ? (
          <InviteForm canInviteOwner={actor.role === "owner"} />
        ) : (
          <EmptyState>Only an owner or admin can invite people.</EmptyState>
        )}
      </Card>
      {manager ? (
        <Card title="Pending invitations" className="mt-4">
          <DataTable
            label="Pending invitations"
            columns={[
              {
                header: "For",
                cell: (i) => <span className="break-all">{i.email ?? "Anyone with the link"}</span>,
              },
              { header: "Role", cell: (i) => i.role },
              {
                header: "Expires",
                cell: (i) => <LocalTime value={i.expiresAt} />,
                className: "whitespace-nowrap",
              },
              {
                header: <span className="sr-only">Actions</span>,
                cell: (i) =>
                  actor.role === "owner" || i.role !== "owner" ? (
                    <RevokeInviteForm inviteId={i.id} label={i.email ?? `for a new ${i.role}`} />
                  ) : null,
              },
            ]}
            rows={pending}
            rowKey={(i) => i.id}
            empty="No pending invitations."
          />
        </Card>
      ) : null}
    </>
  );
}
