"use client";

import { useRouter } from "next/navigation";
import { useRef, useState, useTransition } from "react";
import { CopyButton } from "@/components/ui/copy-button";
import { LocalTime } from "@/components/ui/local-time";
import { createKeyPairAction, revokeKeyPairAction, rollKeyPairAction } from "@/lib/actions/keys";
import type { KeyPairResult } from "@/lib/actions/state";
import { type KeyPairView, ROLL_WINDOW_LABELS, ROLL_WINDOWS, type RollWindow } from "@/lib/keys/schemas";

const STATE_LABEL: Record<KeyPairView["state"], string> = {
  active: "Active",
  rolling: "Rolling",
  expired: "Expired",
  revoked: "Revoked",
};
const STATE_CLASS: Record<KeyPairView["state"], string> = {
  active: "bg-emerald-50 text-emerald-800",
  rolling: "bg-amber-50 text-amber-900",
  expired: "bg-slate-100 text-slate-700",
  revoked: "bg-slate-100 text-slate-700",
};

/** The account's key pairs with Roll and Revoke for managers, and the secret of a new pair shown once. */
export function KeyPairs({
  pairs,
  origin,
  canManage,
}: {
  pairs: KeyPairView[];
  origin: string;
  canManage: boolean;
}) {
  const router = useRouter();
  const [shown, setShown] = useState<{ keyId: string; secret: string } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const done = (res: KeyPairResult) => {
    if (res.ok) {
      setShown({ keyId: res.keyId, secret: res.secret });
      setError(null);
      router.refresh();
    } else setError(res.error);
    return res;
  };
  const working = pairs.filter((p) => p.state === "active" || p.state === "rolling");
  const ended = pairs.filter((p) => p.state === "expired" || p.state === "revoked");
  return (
    <div>
      {working.length === 0 ? (
        <p className="text-sm text-slate-600">This account has no active key yet.</p>
      ) : (
        <ul className="divide-y divide-slate-200" aria-label="Working key pairs">
          {working.map((p, i) => (
            <PairRow
              key={p.id}
              pair={p}
              first={i === 0}
              canManage={canManage}
              onRolled={done}
              onError={setError}
            />
          ))}
        </ul>
      )}
      {canManage ? (
        <div className="mt-4">
          <CreatePair hasPairs={working.length > 0} onCreated={done} />
        </div>
      ) : null}
      {error ? (
        <p role="alert" className="mt-3 rounded-md bg-red-50 p-3 text-sm text-red-800">
          {error}
        </p>
      ) : null}
      {shown ? <SecretOnce pair={shown} origin={origin} /> : null}
      {ended.length > 0 ? (
        <details className="mt-4 text-sm">
          <summary className="cursor-pointer text-slate-700">
            Ended in the last 30 days ({ended.length})
          </summary>
          <ul className="mt-2 space-y-1 text-slate-600">
            {ended.map((p) => (
              <li key={p.id} className="break-all">
                {p.name} · <code className="font-mono">{p.keyId}</code> · {STATE_LABEL[p.state].toLowerCase()}{" "}
                <LocalTime value={p.revokedAt ?? p.expiresAt} />
                {p.replacedBy ? (
                  <>
                    {" "}
                    · replaced by <code className="font-mono">{p.replacedBy}</code>
                  </>
                ) : null}
              </li>
            ))}
          </ul>
        </details>
      ) : null}
    </div>
  );
}

function PairRow({
  pair,
  first,
  canManage,
  onRolled,
  onError,
}: {
  pair: KeyPairView;
  first: boolean;
  canManage: boolean;
  onRolled: (res: KeyPairResult) => KeyPairResult;
  onError: (message: string | null) => void;
}) {
  const router = useRouter();
  const roll = useRef<HTMLDialogElement>(null);
  const revoke = useRef<HTMLDialogElement>(null);
  const [rollWindow, setRollWindow] = useState<RollWindow>("none");
  const [pending, start] = useTransition();
  const titleId = `roll-title-${pair.id}`;
  const revokeTitleId = `revoke-title-${pair.id}`;
  return (
    <li className="py-3">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <p className="flex flex-wrap items-center gap-2 text-sm font-medium text-slate-900">
            {pair.name}
            <span className={`rounded px-1.5 py-0.5 text-xs font-medium ${STATE_CLASS[pair.state]}`}>
              {STATE_LABEL[pair.state]}
              {pair.state === "rolling" && pair.expiresAt ? (
                <>
                  {" "}
                  until <LocalTime value={pair.expiresAt} />
                </>
              ) : null}
            </span>
          </p>
          <code
            className="mt-1 block break-all font-mono text-sm text-slate-800"
            data-testid={first ? "active-key-id" : undefined}
          >
            {pair.keyId}
          </code>
          <p className="mt-1 text-xs text-slate-600">
            {pair.rateLimitPerMinute} requests/min · created <LocalTime value={pair.createdAt} /> · last used{" "}
            {pair.lastUsedAt ? <LocalTime value={pair.lastUsedAt} /> : "never"}
            {pair.replacedBy ? (
              <>
                {" "}
                · replaced by <code className="font-mono">{pair.replacedBy}</code>
              </>
            ) : null}
          </p>
        </div>
        {canManage ? (
          <div className="flex gap-2">
            {pair.state === "active" ? (
              <button
                type="button"
                className="btn-secondary"
                aria-label={`Roll ${pair.name}`}
                onClick={() => roll.current?.showModal()}
              >
                Roll
              </button>
            ) : null}
            <button
              type="button"
              className="btn-secondary"
              aria-label={`Revoke ${pair.name}${pair.state === "rolling" ? " (rolling)" : ""}`}
              onClick={() => revoke.current?.showModal()}
            >
              Revoke
            </button>
          </div>
        ) : null}
      </div>
      <dialog
        ref={roll}
        aria-labelledby={titleId}
        className="m-auto w-[min(28rem,calc(100%-2rem))] rounded-lg p-6 shadow-xl backdrop:bg-slate-900/50"
      >
        <h2 id={titleId} className="text-lg font-semibold text-slate-900">
          Roll “{pair.name}”?
        </h2>
        <p className="mt-2 text-sm text-slate-700">
          A new pair replaces this one. Keep the old pair working for a while so every integration can switch
          without downtime, or stop it now.
        </p>
        <label htmlFor={`roll-window-${pair.id}`} className="field-label mt-4">
          The old pair
        </label>
        <select
          id={`roll-window-${pair.id}`}
          className="field-input"
          value={rollWindow}
          onChange={(e) => setRollWindow(e.target.value as RollWindow)}
        >
          {ROLL_WINDOWS.map((w) => (
            <option key={w} value={w}>
              {ROLL_WINDOW_LABELS[w]}
            </option>
          ))}
        </select>
        <div className="mt-6 flex justify-end gap-2">
          <button type="button" className="btn-secondary" onClick={() => roll.current?.close()}>
            Cancel
          </button>
          <button
            type="button"
            className="btn-danger"
            disabled={pending}
            onClick={() =>
              start(async () => {
                onRolled(await rollKeyPairAction(pair.id, rollWindow));
                roll.current?.close();
              })
            }
          >
            {pending ? "Rolling…" : "Roll now"}
          </button>
        </div>
      </dialog>
      <dialog
        ref={revoke}
        aria-labelledby={revokeTitleId}
        className="m-auto w-[min(28rem,calc(100%-2rem))] rounded-lg p-6 shadow-xl backdrop:bg-slate-900/50"
      >
        <h2 id={revokeTitleId} className="text-lg font-semibold text-slate-900">
          Revoke “{pair.name}”?
        </h2>
        <p className="mt-2 text-sm text-slate-700">
          The pair <code className="break-all font-mono">{pair.keyId}</code> stops working within seconds on
          every server. Integrations still using it get 401.
        </p>
        <div className="mt-6 flex justify-end gap-2">
          <button type="button" className="btn-secondary" onClick={() => revoke.current?.close()}>
            Cancel
          </button>
          <button
            type="button"
            className="btn-danger"
            disabled={pending}
            onClick={() =>
              start(async () => {
                const res = await revokeKeyPairAction(pair.id);
                revoke.current?.close();
                if (res.ok) {
                  onError(null);
                  router.refresh();
                } else onError(res.error ?? "The pair could not be revoked.");
              })
            }
          >
            {pending ? "Revoking…" : "Revoke now"}
          </button>
        </div>
      </dialog>
    </li>
  );
}

function CreatePair({
  hasPairs,
  onCreated,
}: {
  hasPairs: boolean;
  onCreated: (res: KeyPairResult) => KeyPairResult;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [name, setName] = useState(hasPairs ? "" : "Default");
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [pending, start] = useTransition();
  return (
    <>
      <button type="button" className="btn-primary" onClick={() => dialog.current?.showModal()}>
        {hasPairs ? "New key pair" : "Create key"}
      </button>
      <dialog
        ref={dialog}
        aria-labelledby="create-key-title"
        className="m-auto w-[min(28rem,calc(100%-2rem))] rounded-lg p-6 shadow-xl backdrop:bg-slate-900/50"
      >
        <form
          onSubmit={(e) => {
            e.preventDefault();
            start(async () => {
              const res = onCreated(await createKeyPairAction(name));
              if (res.ok) {
                setFieldError(null);
                dialog.current?.close();
              } else setFieldError(res.error);
            });
          }}
        >
          <h2 id="create-key-title" className="text-lg font-semibold text-slate-900">
            {hasPairs ? "A new key pair" : "Create an API key?"}
          </h2>
          <p className="mt-2 text-sm text-slate-700">
            One pair per integration (“tracking snippet”, “CI”) lets you roll or revoke each alone. Its secret
            is shown only once.
          </p>
          <label htmlFor="key-name" className="field-label mt-4">
            Name
          </label>
          <input
            id="key-name"
            className="field-input"
            value={name}
            maxLength={60}
            required
            onChange={(e) => setName(e.target.value)}
            aria-invalid={fieldError ? true : undefined}
            aria-describedby={fieldError ? "key-name-error" : undefined}
          />
          {fieldError ? (
            <p id="key-name-error" className="mt-1 text-sm text-red-800">
              {fieldError}
            </p>
          ) : null}
          <div className="mt-6 flex justify-end gap-2">
            <button type="button" className="btn-secondary" onClick={() => dialog.current?.close()}>
              Cancel
            </button>
            <button type="submit" className="btn-primary" disabled={pending}>
              {pending ? "Creating…" : "Create"}
            </button>
          </div>
        </form>
      </dialog>
    </>
  );
}

function SecretOnce({ pair, origin }: { pair: { keyId: string; secret: string }; origin: string }) {
  const curl = `curl -s ${origin}/api/v1/credits \\\n  -H "x-api-key: ${pair.keyId}" \\\n  -H "x-api-secret: ${pair.secret}"`;
  return (
    <div className="mt-4 space-y-3 rounded-lg border border-amber-300 bg-amber-50 p-4" role="status">
      <p className="text-sm font-semibold text-amber-950">
        Copy the secret now: it is shown only once and we store only its hash.
      </p>
      <dl className="space-y-2 text-sm">
        <div>
          <dt className="font-medium text-slate-900">x-api-key</dt>
          <dd className="flex flex-wrap items-center gap-2">
            <code className="break-all font-mono" data-testid="new-key-id">
              {pair.keyId}
            </code>
            <CopyButton text={pair.keyId} label="Copy key" />
          </dd>
        </div>
        <div>
          <dt className="font-medium text-slate-900">x-api-secret</dt>
          <dd className="flex flex-wrap items-center gap-2">
            <code className="break-all font-mono" data-testid="new-key-secret">
              {pair.secret}
            </code>
            <CopyButton text={pair.secret} label="Copy secret" />
          </dd>
        </div>
      </dl>
      <div>
        <div className="flex items-center justify-between">
          <p className="text-sm font-medium text-slate-900">Try it</p>
          <CopyButton text={curl} label="Copy curl" />
        </div>
        <pre className="mt-1 overflow-x-auto rounded-md bg-slate-900 p-3 text-xs text-slate-100">{curl}</pre>
      </div>
    </div>
  );
}
