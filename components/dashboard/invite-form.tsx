"use client";

import { useActionState } from "react";
import { CopyButton } from "@/components/ui/copy-button";
import { createInviteAction } from "@/lib/actions/create-invite";
import type { InviteState } from "@/lib/actions/state";

export function InviteForm({ canInviteOwner }: { canInviteOwner: boolean }) {
  const [state, action, pending] = useActionState<InviteState, FormData>(createInviteAction, {});
  const link =
    state.link && typeof window !== "undefined" ? `${window.location.origin}${state.link}` : state.link;
  return (
    <div className="space-y-4">
      <form action={action} className="flex flex-wrap items-end gap-3">
        <div className="min-w-60 flex-1">
          <label htmlFor="invite-email" className="field-label">
            Email <span className="font-normal text-slate-600">(optional: we email them the link)</span>
          </label>
          <input
            id="invite-email"
            name="email"
            type="email"
            className="field-input"
            placeholder="teammate@example.com"
          />
        </div>
        <div>
          <label htmlFor="invite-role" className="field-label">
            Role
          </label>
          <select id="invite-role" name="role" defaultValue="member" className="field-input">
            <option value="member">member</option>
            <option value="admin">admin</option>
            {canInviteOwner ? <option value="owner">owner</option> : null}
          </select>
        </div>
        <button type="submit" className="btn-primary" disabled={pending}>
          {pending ? "Creating…" : "Create invite link"}
        </button>
      </form>
      {state.error ? (
        <p role="alert" className="rounded-md bg-red-50 p-3 text-sm text-red-800">
          {state.error}
        </p>
      ) : null}
      {link ? (
        <div
          role="status"
          className="space-y-2 rounded-md border border-emerald-300 bg-emerald-50 p-3 text-sm"
        >
          <p className="text-emerald-950">
            {state.emailedTo
              ? `Invitation emailed to ${state.emailedTo}. You can also send them this link.`
              : state.emailError
                ? `${state.emailError} Send this link to your teammate instead.`
                : "Send this link to your teammate."}{" "}
            It works once and expires in 7 days.
          </p>
          <div className="flex flex-wrap items-center gap-2">
            <code className="break-all font-mono" data-testid="invite-link">
              {link}
            </code>
            <CopyButton text={link} label="Copy link" />
          </div>
        </div>
      ) : null}
    </div>
  );
}
