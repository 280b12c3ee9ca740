"use client";

import { useRouter } from "next/navigation";
import { useActionState, useState, useTransition } from "react";
import { CopyButton } from "@/components/ui/copy-button";
import type { ActionState, SecretState } from "@/lib/actions/state";
import {
  createLegacyTokenAction,
  createWebhookAction,
  deleteWebhookAction,
  dismissNoticeAction,
  enableWebhookAction,
  redeliverAction,
  revokeLegacyTokenAction,
  rotateWebhookAction,
  setCreditsLowThresholdAction,
  testWebhookAction,
} from "@/lib/actions/webhooks";
import { WEBHOOK_EVENTS } from "@/lib/webhooks/events";

function SecretOnce({ secret, label }: { secret: string; label: string }) {
  return (
    <div className="mt-3 rounded-md bg-amber-50 p-3 text-sm text-amber-950" role="status">
      <p className="font-medium">{label} — shown once; store it now.</p>
      <div className="mt-2 flex flex-wrap items-center gap-2">
        <code className="break-all font-mono" data-testid="secret-once">
          {secret}
        </code>
        <CopyButton text={secret} />
      </div>
    </div>
  );
}

export function CreateWebhookForm() {
  const [state, action, pending] = useActionState<SecretState, FormData>(createWebhookAction, {});
  return (
    <form action={action} className="space-y-3">
      <div>
        <label htmlFor="webhook-url" className="field-label">
          Endpoint URL
        </label>
        <input
          id="webhook-url"
          name="url"
          type="url"
          required
          placeholder="https://example.com/webhooks"
          className="field-input"
          aria-invalid={state.field === "url" ? true : undefined}
          aria-describedby={state.error ? "webhook-error" : undefined}
        />
      </div>
      <fieldset>
        <legend className="field-label">Events</legend>
        <div className="mt-1 flex flex-wrap gap-4 text-sm">
          {WEBHOOK_EVENTS.map((e) => (
            <label key={e} className="flex items-center gap-2">
              <input type="checkbox" name="events" value={e} defaultChecked={e.startsWith("job.")} />
              <code>{e}</code>
            </label>
          ))}
        </div>
      </fieldset>
      <button type="submit" className="btn-primary" disabled={pending}>
        {pending ? "Adding…" : "Add endpoint"}
      </button>
      <p className="text-sm" aria-live="polite">
        {state.error ? (
          <span id="webhook-error" className="text-red-700">
            {state.error}
          </span>
        ) : null}
      </p>
      {state.ok && state.secret ? <SecretOnce secret={state.secret} label="Signing secret" /> : null}
    </form>
  );
}

/** Test, rotate, enable and delete buttons of one endpoint. */
export function EndpointActions({
  id,
  enabled,
  canManage,
}: {
  id: string;
  enabled: boolean;
  canManage: boolean;
}) {
  const router = useRouter();
  const [pending, start] = useTransition();
  const [message, setMessage] = useState<string | null>(null);
  const [secret, setSecret] = useState<string | null>(null);
  const run = (fn: () => Promise<ActionState | SecretState>, done: string) =>
    start(async () => {
      const res = await fn();
      setMessage(res.ok ? done : (res.error ?? "Refused."));
      if ("secret" in res && res.secret) setSecret(res.secret);
      router.refresh();
    });
  return (
    <div>
      <div className="flex flex-wrap gap-2">
        <button
          type="button"
          className="btn-secondary"
          disabled={pending || !enabled}
          onClick={() => run(() => testWebhookAction(id), "Test event queued; it appears in the log below.")}
        >
          Send test
        </button>
        {canManage ? (
          <>
            <button
              type="button"
              className="btn-secondary"
              disabled={pending}
              onClick={() =>
                run(() => rotateWebhookAction(id), "Secret rotated; the old one signs too for 24 h.")
              }
            >
              Rotate secret
            </button>
            {!enabled ? (
              <button
                type="button"
                className="btn-secondary"
                disabled={pending}
                onClick={() => run(() => enableWebhookAction(id), "Endpoint enabled.")}
              >
                Enable
              </button>
            ) : null}
            <button
              type="button"
              className="btn-danger"
              disabled={pending}
              onClick={() => {
                if (window.confirm("Delete this endpoint and its delivery log?")) {
                  run(() => deleteWebhookAction(id), "Endpoint deleted.");
                }
              }}
            >
              Delete
            </button>
          </>
        ) : null}
      </div>
      <p className="mt-2 text-sm text-slate-700" aria-live="polite">
        {message}
      </p>
      {secret ? <SecretOnce secret={secret} label="New signing secret" /> : null}
    </div>
  );
}

export function RedeliverButton({ id, deliveryId }: { id: string; deliveryId: string }) {
  const router = useRouter();
  const [pending, start] = useTransition();
  const [error, setError] = useState<string | null>(null);
  return (
    <>
      <button
        type="button"
        className="text-sm text-sky-800 underline disabled:opacity-50"
        disabled={pending}
        onClick={() =>
          start(async () => {
            const res = await redeliverAction(id, deliveryId);
            setError(res.ok ? null : (res.error ?? "Refused."));
            router.refresh();
          })
        }
      >
        Redeliver
      </button>
      {error ? <span className="ml-2 text-sm text-red-700">{error}</span> : null}
    </>
  );
}

export function ThresholdForm({ threshold }: { threshold: number }) {
  const [state, action, pending] = useActionState<ActionState, FormData>(setCreditsLowThresholdAction, {});
  return (
    <form action={action} className="flex flex-wrap items-end gap-3">
      <div>
        <label htmlFor="threshold" className="field-label">
          credits.low when the balance falls under
        </label>
        <input
          id="threshold"
          name="threshold"
          type="number"
          min={0}
          max={1000000}
          step={1}
          defaultValue={threshold}
          className="field-input w-40"
        />
      </div>
      <button type="submit" className="btn-secondary" disabled={pending}>
        Save
      </button>
      <p className="w-full text-sm" aria-live="polite">
        {state.error ? <span className="text-red-700">{state.error}</span> : state.ok ? "Saved." : null}
      </p>
    </form>
  );
}

export function DismissNotice({ id }: { id: string }) {
  const router = useRouter();
  const [pending, start] = useTransition();
  return (
    <button
      type="button"
      className="btn-secondary"
      disabled={pending}
      onClick={() =>
        start(async () => {
          await dismissNoticeAction(id);
          router.refresh();
        })
      }
    >
      Dismiss
    </button>
  );
}

export function CreateLegacyTokenForm({ origin }: { origin: string }) {
  const [state, action, pending] = useActionState<SecretState, FormData>(createLegacyTokenAction, {});
  return (
    <form action={action} className="space-y-3">
      <div className="flex flex-wrap items-end gap-3">
        <div className="min-w-60 flex-1">
          <label htmlFor="token-name" className="field-label">
            Token name
          </label>
          <input
            id="token-name"
            name="name"
            required
            maxLength={80}
            placeholder="Old CMS plugin"
            className="field-input"
          />
        </div>
        <button type="submit" className="btn-primary" disabled={pending}>
          {pending ? "Creating…" : "Create token"}
        </button>
      </div>
      <p className="text-sm" aria-live="polite">
        {state.error ? <span className="text-red-700">{state.error}</span> : null}
      </p>
      {state.ok && state.secret ? (
        <>
          <SecretOnce secret={state.secret} label="Legacy API token" />
          <pre className="mt-2 overflow-x-auto rounded bg-slate-900 p-3 text-xs text-slate-100">
            {`curl -s ${origin}/api/auth/me -H "Authorization: Bearer ${state.secret}"`}
          </pre>
        </>
      ) : null}
    </form>
  );
}

export function RevokeTokenButton({ id }: { id: string }) {
  const router = useRouter();
  const [pending, start] = useTransition();
  return (
    <button
      type="button"
      className="btn-danger"
      disabled={pending}
      onClick={() => {
        if (!window.confirm("Revoke this token? Integrations using it stop working at once.")) return;
        start(async () => {
          await revokeLegacyTokenAction(id);
          router.refresh();
        });
      }}
    >
      Revoke
    </button>
  );
}
