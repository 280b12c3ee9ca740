"use client";

import { useRouter } from "next/navigation";
import { useRef, useState, useTransition } from "react";
import { CopyButton } from "@/components/ui/copy-button";
import { rotateKeyAction } from "@/lib/actions/rotate-key";

/** Rotate with a confirmation dialog; the new secret is shown once, with a copy button and a curl example. */
export function RotateKey({ origin, hasKey }: { origin: string; hasKey: boolean }) {
  const router = useRouter();
  const dialog = useRef<HTMLDialogElement>(null);
  const [pending, start] = useTransition();
  const [error, setError] = useState<string | null>(null);
  const [pair, setPair] = useState<{ keyId: string; secret: string } | null>(null);

  const confirm = () =>
    start(async () => {
      setError(null);
      const res = await rotateKeyAction();
      dialog.current?.close();
      if (res.ok) {
        setPair({ keyId: res.keyId, secret: res.secret });
        // The server-rendered "Active key" card shows the new key id; this component keeps the secret.
        router.refresh();
      } else setError(res.error);
    });

  const curl = pair
    ? `curl -s ${origin}/api/v1/credits \\\n  -H "x-api-key: ${pair.keyId}" \\\n  -H "x-api-secret: ${pair.secret}"`
    : "";

  return (
    <div>
      <button type="button" className="btn-primary" onClick={() => dialog.current?.showModal()}>
        {hasKey ? "Rotate key" : "Create key"}
      </button>
      <dialog
        ref={dialog}
        aria-labelledby="rotate-title"
        className="m-auto w-[min(28rem,calc(100%-2rem))] rounded-lg p-6 shadow-xl backdrop:bg-slate-900/50"
      >
        <h2 id="rotate-title" className="text-lg font-semibold text-slate-900">
          {hasKey ? "Rotate the API key?" : "Create an API key?"}
        </h2>
        <p className="mt-2 text-sm text-slate-700">
          {hasKey
            ? "The current key and secret stop working at once. Every integration using them must be updated with the new pair."
            : "A new key pair is created; its secret is shown only once."}
        </p>
        <div className="mt-6 flex justify-end gap-2">
          <button type="button" className="btn-secondary" onClick={() => dialog.current?.close()}>
            Cancel
          </button>
          <button type="button" className="btn-danger" onClick={confirm} disabled={pending}>
            {pending ? "Rotating…" : hasKey ? "Rotate now" : "Create"}
          </button>
        </div>
      </dialog>
      {error ? (
        <p role="alert" className="mt-3 rounded-md bg-red-50 p-3 text-sm text-red-800">
          {error}
        </p>
      ) : null}
      {pair ? (
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
            <pre className="mt-1 overflow-x-auto rounded-md bg-slate-900 p-3 text-xs text-slate-100">
              {curl}
            </pre>
          </div>
        </div>
      ) : null}
    </div>
  );
}
