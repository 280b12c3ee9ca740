"use client";

import { useActionState } from "react";
import { connectPlausibleAction, disconnectAction, setGa4PropertyAction } from "@/lib/actions/connections";
import type { ActionState } from "@/lib/actions/state";

function Outcome({ state, id, done }: { state: ActionState; id: string; done: string }) {
  return (
    <p className="w-full text-sm" aria-live="polite">
      {state.error ? (
        <span id={id} className="text-red-700">
          {state.error}
        </span>
      ) : state.ok ? (
        <span className="text-emerald-800">{done}</span>
      ) : null}
    </p>
  );
}

export function PlausibleForm({ baseUrl }: { baseUrl: string | null }) {
  const [state, action, pending] = useActionState<ActionState, FormData>(connectPlausibleAction, {});
  return (
    <form action={action} className="flex flex-wrap items-end gap-3">
      <div className="min-w-60 flex-1">
        <label htmlFor="plausible-key" className="field-label">
          Stats API key
        </label>
        <input
          id="plausible-key"
          name="apiKey"
          type="password"
          autoComplete="off"
          required
          className="field-input"
          aria-invalid={state.field === "apiKey" ? true : undefined}
          aria-describedby={state.error ? "plausible-error" : undefined}
        />
      </div>
      <div className="min-w-60 flex-1">
        <label htmlFor="plausible-url" className="field-label">
          Address (self-hosted only)
        </label>
        <input
          id="plausible-url"
          name="baseUrl"
          type="url"
          placeholder="https://plausible.io"
          defaultValue={baseUrl ?? ""}
          className="field-input"
          aria-invalid={state.field === "baseUrl" ? true : undefined}
        />
      </div>
      <button type="submit" className="btn-primary" disabled={pending}>
        {pending ? "Saving…" : "Save Plausible key"}
      </button>
      <Outcome state={state} id="plausible-error" done="Plausible connected." />
    </form>
  );
}

export function Ga4PropertyForm({ domain, property }: { domain: string; property: string | null }) {
  const [state, action, pending] = useActionState<ActionState, FormData>(setGa4PropertyAction, {});
  const id = `ga4-${domain.replace(/[^a-z0-9]/g, "-")}`;
  return (
    <form action={action} className="flex flex-wrap items-end gap-3">
      <input type="hidden" name="domain" value={domain} />
      <div className="min-w-48 flex-1">
        <label htmlFor={id} className="field-label">
          GA4 property of {domain}
        </label>
        <input
          id={id}
          name="property"
          inputMode="numeric"
          placeholder="123456789"
          defaultValue={property?.replace(/^properties\//, "") ?? ""}
          className="field-input"
          aria-invalid={state.error ? true : undefined}
          aria-describedby={state.error ? `${id}-error` : undefined}
        />
      </div>
      <button type="submit" className="btn-secondary" disabled={pending}>
        {pending ? "Saving…" : "Save"}
      </button>
      <Outcome state={state} id={`${id}-error`} done="Saved." />
    </form>
  );
}

export function DisconnectButton({ provider, label }: { provider: "google" | "plausible"; label: string }) {
  const [state, action, pending] = useActionState<ActionState, FormData>(disconnectAction, {});
  return (
    <form action={action} className="inline">
      <input type="hidden" name="provider" value={provider} />
      <button type="submit" className="btn-secondary" disabled={pending}>
        {pending ? "Disconnecting…" : `Disconnect ${label}`}
      </button>
      {state.error ? (
        <span className="ml-2 text-sm text-red-700" role="alert">
          {state.error}
        </span>
      ) : null}
    </form>
  );
}
