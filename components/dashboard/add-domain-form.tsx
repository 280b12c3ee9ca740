"use client";

import { useActionState, useState } from "react";
import { addDomainAction } from "@/lib/actions/add-domain";
import type { ActionState } from "@/lib/actions/state";

export function AddDomainForm() {
  // The typed value stays after a refusal (a form action resets the form); it is cleared once the domain is added.
  const [value, setValue] = useState("");
  const [state, action, pending] = useActionState<ActionState, FormData>(async (prev, form) => {
    const next = await addDomainAction(prev, form);
    if (next.ok) setValue("");
    return next;
  }, {});
  return (
    <form action={action} className="flex flex-wrap items-end gap-3">
      <div className="min-w-60 flex-1">
        <label htmlFor="domain" className="field-label">
          Domain
        </label>
        <input
          id="domain"
          name="domain"
          required
          placeholder="example.com"
          className="field-input"
          value={value}
          onChange={(e) => setValue(e.target.value)}
          aria-invalid={state.error ? true : undefined}
          aria-describedby={state.error ? "domain-error" : undefined}
        />
      </div>
      <button type="submit" className="btn-primary" disabled={pending}>
        {pending ? "Adding…" : "Add domain"}
      </button>
      <p className="w-full text-sm" aria-live="polite">
        {state.error ? (
          <span id="domain-error" className="text-red-700">
            {state.error}
          </span>
        ) : state.ok ? (
          <span className="text-emerald-800">Domain added.</span>
        ) : null}
      </p>
    </form>
  );
}
