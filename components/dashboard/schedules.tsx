"use client";

import { useRouter } from "next/navigation";
import { useActionState, useState, useTransition } from "react";
import {
  createScheduleAction,
  deleteScheduleAction,
  pauseScheduleAction,
  runScheduleNowAction,
} from "@/lib/actions/schedules";
import type { ActionState, ScheduleFormState } from "@/lib/actions/state";

const TOOLS = [
  { value: "audits", label: "URL audit" },
  { value: "seo-aeo-geo-audit", label: "SEO/AEO/GEO audit" },
  { value: "core-web-vitals", label: "Core Web Vitals" },
  { value: "ai-access", label: "AI access matrix" },
] as const;
const WEEKDAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"];

/** Schedules an audit of a URL of the domain: tool, URL, day or week, hour in a time zone, optional cap. */
export function CreateScheduleForm({ domain }: { domain: string }) {
  const [state, action, pending] = useActionState<ScheduleFormState, FormData>(createScheduleAction, {});
  const [every, setEvery] = useState("week");
  // A refused form shows what was typed again (a form action resets the fields); a new key re-renders them.
  const typed = state.values ?? {};
  const formKey = state.values ? JSON.stringify(state.values) : "blank";
  const zone = typeof Intl !== "undefined" ? Intl.DateTimeFormat().resolvedOptions().timeZone : "UTC";
  const invalid = (f: string) => (state.field === f ? true : undefined);
  return (
    <form key={formKey} action={action} className="grid gap-3 sm:grid-cols-2">
      <div>
        <label htmlFor="schedule-tool" className="field-label">
          Audit
        </label>
        <select id="schedule-tool" name="tool" className="field-input" defaultValue={typed.tool || "audits"}>
          {TOOLS.map((t) => (
            <option key={t.value} value={t.value}>
              {t.label}
            </option>
          ))}
        </select>
      </div>
      <div>
        <label htmlFor="schedule-url" className="field-label">
          Page URL
        </label>
        <input
          id="schedule-url"
          name="url"
          type="url"
          required
          defaultValue={typed.url ?? `https://${domain}/`}
          className="field-input"
          aria-invalid={invalid("url")}
          aria-describedby={state.error ? "schedule-error" : undefined}
        />
      </div>
      <div>
        <label htmlFor="schedule-every" className="field-label">
          How often
        </label>
        <select
          id="schedule-every"
          name="every"
          className="field-input"
          value={every}
          onChange={(e) => setEvery(e.target.value)}
        >
          <option value="day">Every day</option>
          <option value="week">Every week</option>
        </select>
      </div>
      {every === "week" ? (
        <div>
          <label htmlFor="schedule-weekday" className="field-label">
            Day of the week
          </label>
          <select
            id="schedule-weekday"
            name="weekday"
            className="field-input"
            defaultValue={typed.weekday || "monday"}
          >
            {WEEKDAYS.map((d) => (
              <option key={d} value={d}>
                {d[0]!.toUpperCase() + d.slice(1)}
              </option>
            ))}
          </select>
        </div>
      ) : null}
      <div>
        <label htmlFor="schedule-hour" className="field-label">
          Hour (0–23)
        </label>
        <input
          id="schedule-hour"
          name="hour"
          type="number"
          min={0}
          max={23}
          required
          defaultValue={typed.hour ?? "7"}
          className="field-input"
          aria-invalid={invalid("hour")}
        />
      </div>
      <div>
        <label htmlFor="schedule-zone" className="field-label">
          Time zone
        </label>
        <input
          id="schedule-zone"
          name="timeZone"
          required
          defaultValue={typed.timeZone || zone}
          className="field-input"
          aria-invalid={invalid("timeZone")}
        />
      </div>
      <div>
        <label htmlFor="schedule-cap" className="field-label">
          Monthly credit cap (optional)
        </label>
        <input
          id="schedule-cap"
          name="monthlyCreditCap"
          type="number"
          min={1}
          defaultValue={typed.monthlyCreditCap ?? ""}
          className="field-input"
          aria-invalid={invalid("monthlyCreditCap")}
        />
      </div>
      <div className="sm:col-span-2">
        <button type="submit" className="btn-primary" disabled={pending}>
          {pending ? "Scheduling…" : "Schedule"}
        </button>
        <p className="mt-2 text-sm" aria-live="polite">
          {state.error ? (
            <span id="schedule-error" className="text-red-700">
              {state.error}
            </span>
          ) : state.ok ? (
            <span className="text-emerald-800">Scheduled.</span>
          ) : null}
        </p>
      </div>
    </form>
  );
}

/** Run now, pause or resume, and delete for one schedule. */
export function ScheduleActions({
  id,
  domain,
  paused,
  label,
}: {
  id: string;
  domain: string;
  paused: boolean;
  label: string;
}) {
  const router = useRouter();
  const [pending, start] = useTransition();
  const [message, setMessage] = useState<string | null>(null);
  const run = (fn: () => Promise<ActionState>, done: string) =>
    start(async () => {
      const res = await fn();
      setMessage(res.ok ? done : (res.error ?? "Refused."));
      router.refresh();
    });
  return (
    <div>
      <div className="flex flex-wrap gap-2">
        <button
          type="button"
          className="btn-secondary"
          disabled={pending || paused}
          aria-label={`Run ${label} now`}
          onClick={() =>
            run(
              () => runScheduleNowAction(id, domain),
              "Run started and billed; its result appears here when it finishes.",
            )
          }
        >
          Run now
        </button>
        <button
          type="button"
          className="btn-secondary"
          disabled={pending}
          aria-label={`${paused ? "Resume" : "Pause"} ${label}`}
          onClick={() => run(() => pauseScheduleAction(id, !paused), paused ? "Resumed." : "Paused.")}
        >
          {paused ? "Resume" : "Pause"}
        </button>
        <button
          type="button"
          className="btn-secondary"
          disabled={pending}
          aria-label={`Delete ${label}`}
          onClick={() => {
            if (window.confirm("Delete this schedule and its history?")) {
              run(() => deleteScheduleAction(id, domain), "Deleted.");
            }
          }}
        >
          Delete
        </button>
      </div>
      <p className="mt-2 text-sm text-slate-700" aria-live="polite">
        {message}
      </p>
    </div>
  );
}
