"use client";

import { useActionState } from "react";
import { buyCreditsAction } from "@/lib/actions/buy-credits";

/** One pack's "Buy" button: the server creates the Checkout Session and sends the browser to it. */
export function BuyPackButton({
  packId,
  label,
  disabled,
}: {
  packId: string;
  label: string;
  disabled?: boolean;
}) {
  const [state, action, pending] = useActionState(buyCreditsAction, {});
  return (
    <form action={action} className="mt-4">
      <input type="hidden" name="packId" value={packId} />
      <button type="submit" className="btn-primary w-full" disabled={disabled || pending} aria-label={label}>
        {pending ? "Opening checkout…" : "Buy"}
      </button>
      {state.error ? (
        <p role="alert" className="mt-2 text-sm text-red-800">
          {state.error}
        </p>
      ) : null}
    </form>
  );
}
