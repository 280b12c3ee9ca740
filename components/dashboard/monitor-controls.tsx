"use client";

import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import {
  deleteMonitorAction,
  pauseMonitorAction,
  resumeMonitorAction,
  runMonitorNowAction,
} from "@/lib/actions/monitors";
import type { ActionState } from "@/lib/actions/state";
import { dismissNoticeAction } from "@/lib/actions/webhooks";

/**
 * A monitor's buttons for an owner or admin: run now (billed like a scheduled run), pause or resume, delete
 * (asks first). Every refusal (no credits, the cap, a removed domain) is shown beside the buttons.
 */
export function MonitorControls({
  id,
  label,
  status,
  creditsPerRun,
  afterDelete,
}: {
  id: string;
  label: string;
  status: "active" | "paused";
  creditsPerRun: number;
  /** Where to go once deleted (the list); omitted, the page refreshes. */
  afterDelete?: string;
}) {
  const router = useRouter();
  const [pending, start] = useTransition();
  const [message, setMessage] = useState<{ text: string; error: boolean } | null>(null);
  const [confirming, setConfirming] = useState(false);

  const act = (fn: () => Promise<ActionState & { creditsCharged?: number }>, done: string) =>
    start(async () => {
      const res = await fn();
      if (!res.ok) {
        setMessage({ text: res.error ?? "That did not work.", error: true });
        return;
      }
      setMessage({ text: done, error: false });
      router.refresh();
    });

  return (
    <div className="flex flex-wrap items-center gap-2">
      <button
        type="button"
        className="btn-primary"
        disabled={pending}
        onClick={() =>
          act(
            () => runMonitorNowAction(id),
            `Run started: ${creditsPerRun} credits charged; failed answers are refunded.`,
          )
        }
        aria-label={`Run ${label} now for ${creditsPerRun} credits`}
      >
        Run now · {creditsPerRun} credits
      </button>
      {status === "active" ? (
        <button
          type="button"
          className="btn-secondary"
          disabled={pending}
          onClick={() => act(() => pauseMonitorAction(id), "Paused.")}
          aria-label={`Pause ${label}`}
        >
          Pause
        </button>
      ) : (
        <button
          type="button"
          className="btn-secondary"
          disabled={pending}
          onClick={() => act(() => resumeMonitorAction(id), "Resumed.")}
          aria-label={`Resume ${label}`}
        >
          Resume
        </button>
      )}
      {confirming ? (
        <>
          <button
            type="button"
            className="btn-danger"
            disabled={pending}
            onClick={() =>
              start(async () => {
                const res = await deleteMonitorAction(id);
                if (!res.ok) {
                  setMessage({ text: res.error ?? "That did not work.", error: true });
                  return;
                }
                if (afterDelete) router.push(afterDelete);
                else router.refresh();
              })
            }
          >
            Delete {label} and its history
          </button>
          <button type="button" className="btn-secondary" onClick={() => setConfirming(false)}>
            Keep it
          </button>
        </>
      ) : (
        <button
          type="button"
          className="btn-secondary"
          onClick={() => setConfirming(true)}
          aria-label={`Delete ${label}`}
        >
          Delete
        </button>
      )}
      {message ? (
        <p
          role={message.error ? "alert" : "status"}
          className={`basis-full text-sm ${message.error ? "text-red-800" : "text-emerald-800"}`}
        >
          {message.text}
        </p>
      ) : null}
    </div>
  );
}

/** Dismisses one of the account's notices (any member, as on the overview). */
export function DismissMonitorNotice({ id }: { id: string }) {
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
