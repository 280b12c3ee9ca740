"use client";

import { useActionState, useState } from "react";
import type { ActionState } from "@/lib/actions/state";
import {
  changeMemberRoleAction,
  removeDomainAction,
  removeMemberAction,
  revokeInviteAction,
} from "@/lib/actions/team";

const ROLE_OPTIONS = ["owner", "admin", "member"] as const;

function Feedback({ state, ok }: { state: ActionState; ok?: string }) {
  return (
    <p className="text-sm" aria-live="polite">
      {state.error ? (
        <span className="text-red-700">{state.error}</span>
      ) : state.ok && ok ? (
        <span className="text-emerald-800">{ok}</span>
      ) : null}
    </p>
  );
}

/** A member's role as a select the manager may change; owners are offered only to owners. */
export function MemberRoleForm({
  userId,
  email,
  role,
  canMakeOwner,
}: {
  userId: string;
  email: string;
  role: string;
  canMakeOwner: boolean;
}) {
  const [state, action, pending] = useActionState<ActionState, FormData>(changeMemberRoleAction, {});
  const id = `role-${userId}`;
  return (
    <form action={action} className="flex flex-wrap items-center gap-2">
      <input type="hidden" name="userId" value={userId} />
      <label htmlFor={id} className="sr-only">
        Role of {email}
      </label>
      <select
        id={id}
        name="role"
        defaultValue={role}
        className="rounded-md border border-slate-300 px-2 py-1 text-sm"
      >
        {ROLE_OPTIONS.filter((r) => canMakeOwner || r !== "owner" || role === "owner").map((r) => (
          <option key={r} value={r}>
            {r}
          </option>
        ))}
      </select>
      <button
        type="submit"
        className="btn-secondary"
        disabled={pending}
        aria-label={`Save the role of ${email}`}
      >
        {pending ? "Saving…" : "Save"}
      </button>
      <Feedback state={state} ok="Role changed." />
    </form>
  );
}

/** Removes a member after a second click that names them. */
export function RemoveMemberForm({ userId, email }: { userId: string; email: string }) {
  const [state, action, pending] = useActionState<ActionState, FormData>(removeMemberAction, {});
  const [asking, setAsking] = useState(false);
  if (!asking) {
    return (
      <div>
        <button
          type="button"
          className="btn-secondary"
          onClick={() => setAsking(true)}
          aria-label={`Remove ${email}`}
        >
          Remove
        </button>
        <Feedback state={state} />
      </div>
    );
  }
  return (
    <form action={action} className="flex flex-wrap items-center gap-2">
      <input type="hidden" name="userId" value={userId} />
      <span className="text-sm text-slate-800">Remove {email} from this account?</span>
      <button type="submit" className="btn-danger py-1.5" disabled={pending}>
        {pending ? "Removing…" : "Remove now"}
      </button>
      <button type="button" className="btn-secondary" onClick={() => setAsking(false)}>
        Cancel
      </button>
      <Feedback state={state} />
    </form>
  );
}

export function RevokeInviteForm({ inviteId, label }: { inviteId: string; label: string }) {
  const [state, action, pending] = useActionState<ActionState, FormData>(revokeInviteAction, {});
  return (
    <form action={action} className="flex flex-wrap items-center gap-2">
      <input type="hidden" name="inviteId" value={inviteId} />
      <button
        type="submit"
        className="btn-secondary"
        disabled={pending}
        aria-label={`Revoke the invitation ${label}`}
      >
        {pending ? "Revoking…" : "Revoke"}
      </button>
      <Feedback state={state} />
    </form>
  );
}

/** Removes a domain and its tracking data once its name is typed. */
export function RemoveDomainForm({ domain }: { domain: string }) {
  const [state, action, pending] = useActionState<ActionState, FormData>(removeDomainAction, {});
  const [typed, setTyped] = useState("");
  const id = `remove-${domain}`;
  return (
    <details className="mt-3">
      <summary className="cursor-pointer text-sm font-medium text-red-800">Remove this domain</summary>
      <form action={action} className="mt-2 space-y-2">
        <input type="hidden" name="domain" value={domain} />
        <p className="text-sm text-slate-800">
          Its bot visits, citations and statistics are deleted with it; this cannot be undone. AI visibility
          checks you ran stay in their history.
        </p>
        <label htmlFor={id} className="field-label">
          Type {domain} to confirm
        </label>
        <input
          id={id}
          name="confirm"
          value={typed}
          onChange={(e) => setTyped(e.target.value)}
          autoComplete="off"
          className="field-input max-w-sm"
          aria-invalid={state.field === "confirm" ? true : undefined}
        />
        <button
          type="submit"
          className="btn-danger"
          disabled={pending || typed.trim().toLowerCase() !== domain}
        >
          {pending ? "Removing…" : `Remove ${domain}`}
        </button>
        <Feedback state={state} />
      </form>
    </details>
  );
}
