"use client";

import { useActionState } from "react";
import type { VerifyState } from "@/lib/actions/state";
import { verifyDomainAction } from "@/lib/actions/verify-domain";

export function VerifyDomain({ domain }: { domain: string }) {
  const [state, action, pending] = useActionState<VerifyState, FormData>(verifyDomainAction, {});
  return (
    <form action={action} className="mt-3">
      <input type="hidden" name="domain" value={domain} />
      <button type="submit" className="btn-secondary" disabled={pending}>
        {pending ? "Checking…" : `Verify ${domain}`}
      </button>
      <div aria-live="polite" className="mt-2 text-sm">
        {state.error ? <p className="text-red-700">{state.error}</p> : null}
        {state.checks ? (
          <ul className="space-y-1">
            {state.checks.map((c) => (
              <li key={c.method} className={c.ok ? "text-emerald-800" : "text-slate-700"}>
                {c.ok ? "✓" : "✕"} {c.method === "dns_txt" ? "DNS TXT" : "File"}: {c.detail}
              </li>
            ))}
          </ul>
        ) : null}
      </div>
    </form>
  );
}
