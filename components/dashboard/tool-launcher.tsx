"use client";

import { useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useEffect, useState, useTransition } from "react";
import { JobView } from "@/components/dashboard/job-view";
import { checkLaunchAction } from "@/lib/actions/check-launch";
import { launchToolAction } from "@/lib/actions/launch-tool";
import type { ToolCapability } from "@/lib/capabilities/capabilities";
import type { CreditAccountView } from "@/lib/credits/credits";
import type { LaunchCheck } from "@/lib/dashboard/tools";
import { getTool } from "@/lib/tools/catalog";
import { estimateCost, type FormValues, formToInput, initialFormValues } from "@/lib/tools/form";
import type { FieldSpec } from "@/lib/tools/types";
import { setCreditBalance, useCredits } from "./use-credits";

type Values = FormValues;

/** Field → its options this server cannot serve (an AI engine not offered here), from the tool's capability. */
function refusedOptions(capability?: ToolCapability): Record<string, Set<string>> {
  const out: Record<string, Set<string>> = {};
  for (const o of capability?.options ?? []) {
    if (o.available) continue;
    const at = o.option.indexOf("=");
    if (at < 0) continue;
    const field = o.option.slice(0, at);
    const set = out[field] ?? new Set<string>();
    set.add(o.option.slice(at + 1));
    out[field] = set;
  }
  return out;
}

/**
 * The form's first state, leaving out options this server cannot serve (an engine not offered here): the
 * price shown is then the price of a launch that can run.
 */
function startValues(form: readonly FieldSpec[], refused: Record<string, Set<string>>): Values {
  const values = initialFormValues(form);
  for (const f of form) {
    const missing = refused[f.name];
    if (!missing) continue;
    if (f.kind === "checkboxes") {
      values[f.name] = f.options.filter((o) => !missing.has(o));
    } else if (f.kind === "select" && missing.has(f.default)) {
      values[f.name] = f.options.find((o) => !missing.has(o)) ?? f.default;
    }
  }
  return values;
}

/**
 * The server's verdict on the current input (the rule a launch applies, lib/tools/verdict.ts), asked as the
 * form changes: Launch is disabled exactly when the launch would be refused.
 */
function useLaunchCheck(tool: string, body: unknown) {
  const key = JSON.stringify(body);
  const [checked, setChecked] = useState<{ key: string; result: LaunchCheck } | null>(null);
  useEffect(() => {
    let live = true;
    const timer = setTimeout(() => {
      checkLaunchAction(tool, JSON.parse(key))
        .then((result) => {
          if (live) setChecked({ key, result });
        })
        .catch(() => {});
    }, 250);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [tool, key]);
  return checked?.key === key ? checked.result : null;
}

/**
 * A tool's launch form, built from its catalogue definition. `capability` is computed on the server (the tool's
 * verdict and its options this server cannot serve) and handed over as plain data; each input is judged by the
 * server as it changes. The dashboard never lets a job be charged only to be refunded, and never names the
 * operator's settings.
 */
export function ToolLauncher({
  tool,
  credits,
  capability,
}: {
  tool: string;
  credits: CreditAccountView;
  capability?: ToolCapability;
}) {
  const info = getTool(tool);
  const queryClient = useQueryClient();
  const balance = useCredits(credits).data?.balance ?? credits.balance;
  const refused = refusedOptions(capability);
  const [values, setValues] = useState<Values>(() => startValues(info?.form ?? [], refused));
  const [issues, setIssues] = useState<Record<string, string>>({});
  const [message, setMessage] = useState<string | null>(null);
  const [short, setShort] = useState(false);
  const [launched, setLaunched] = useState<{ jobId: string; charged: number } | null>(null);
  const [pending, start] = useTransition();
  const body = info ? formToInput(info, values) : {};
  const check = useLaunchCheck(tool, body);
  if (!info) return null;

  const cost = estimateCost(info, body);
  const unoffered = Object.values(refused).flatMap((set) => [...set]);
  const inputRefused = check && !check.ok ? check.message : null;
  const set = (name: string, value: string | string[] | boolean) =>
    setValues((v) => ({ ...v, [name]: value }));

  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    setMessage(null);
    setShort(false);
    // The tool's own schema first, in the browser; the server validates again with the same schema.
    const parsed = info.input.safeParse(body);
    if (!parsed.success) {
      setIssues(Object.fromEntries(parsed.error.issues.map((i) => [String(i.path[0] ?? "body"), i.message])));
      setMessage("Check the highlighted fields.");
      return;
    }
    setIssues({});
    start(async () => {
      const res = await launchToolAction(info.name, body);
      if (res.ok) {
        setCreditBalance(queryClient, res.balance);
        setLaunched({ jobId: res.jobId, charged: res.creditsCharged });
      } else {
        setIssues(Object.fromEntries(res.issues.map((i) => [i.field.split(".")[0] ?? i.field, i.message])));
        setMessage(res.message);
        setShort(res.required !== undefined);
      }
    });
  };

  return (
    <div className="space-y-6">
      <form
        onSubmit={submit}
        noValidate
        className="space-y-4 rounded-lg border border-slate-200 bg-white p-4 shadow-sm sm:p-5"
      >
        {unoffered.length > 0 ? (
          <p className="rounded-md bg-slate-100 p-3 text-sm text-slate-800" data-testid="unconfigured-note">
            Not offered on this service yet: {unoffered.join(", ")}.
          </p>
        ) : null}
        {info.form.map((f) => (
          <Field
            key={f.name}
            field={f}
            value={values[f.name]}
            error={issues[f.name]}
            disabledOptions={refused[f.name]}
            onChange={(v) => set(f.name, v)}
          />
        ))}
        <div className="flex flex-wrap items-center gap-4 border-t border-slate-200 pt-4">
          <button
            type="submit"
            className="btn-primary"
            disabled={pending || Boolean(inputRefused)}
            aria-describedby={inputRefused ? "launch-refused" : undefined}
          >
            {pending ? "Launching…" : `Launch for ${cost} credits`}
          </button>
          <p className="text-sm text-slate-700" aria-live="polite">
            Cost <strong data-testid="tool-cost">{cost}</strong> credits · balance{" "}
            <strong data-testid="tool-balance">{balance}</strong>
            {launched ? (
              ""
            ) : balance < cost ? (
              <>
                {" "}
                · not enough credits.{" "}
                <Link className="link" href="/dashboard/billing">
                  Buy credits
                </Link>
              </>
            ) : (
              <> · after launch {balance - cost}</>
            )}
          </p>
        </div>
        {inputRefused ? (
          <p
            id="launch-refused"
            className="rounded-md bg-amber-50 p-3 text-sm text-amber-950"
            data-testid="launch-refused"
          >
            {inputRefused}
          </p>
        ) : null}
        {message ? (
          <p role="alert" className="rounded-md bg-red-50 p-3 text-sm text-red-800">
            {message}
            {short ? (
              <>
                {" "}
                <Link className="link" href="/dashboard/billing">
                  Buy credits
                </Link>
              </>
            ) : null}
          </p>
        ) : null}
        {launched ? (
          <p role="status" className="rounded-md bg-emerald-50 p-3 text-sm text-emerald-900">
            Job launched: {launched.charged} credits charged, balance now {balance}.{" "}
            <Link className="link" href={`/dashboard/jobs/${launched.jobId}`}>
              Open the job
            </Link>
          </p>
        ) : null}
      </form>
      {launched ? <JobView key={launched.jobId} jobId={launched.jobId} /> : null}
    </div>
  );
}

function Field({
  field,
  value,
  error,
  disabledOptions,
  onChange,
}: {
  field: FieldSpec;
  value: string | string[] | boolean | undefined;
  error?: string;
  /** Options this service does not offer (an AI engine without its provider). */
  disabledOptions?: Set<string>;
  onChange: (v: string | string[] | boolean) => void;
}) {
  const id = `field-${field.name}`;
  const errorId = `${id}-error`;
  const errorEl = error ? (
    <p id={errorId} className="field-error">
      {error}
    </p>
  ) : null;
  const common = {
    id,
    name: field.name,
    "aria-invalid": error ? true : undefined,
    "aria-describedby": error
      ? errorId
      : field.kind === "list" || ("hint" in field && field.hint)
        ? `${id}-hint`
        : undefined,
  };
  switch (field.kind) {
    case "checkbox":
      return (
        <div className="flex items-center gap-2">
          <input
            id={id}
            type="checkbox"
            checked={value === true}
            onChange={(e) => onChange(e.target.checked)}
            className="size-4"
          />
          <label htmlFor={id} className="text-sm text-slate-900">
            {field.label}
          </label>
        </div>
      );
    case "checkboxes": {
      const list = Array.isArray(value) ? value : [];
      return (
        <fieldset>
          <legend className="field-label">{field.label}</legend>
          <div className="mt-1 flex flex-wrap gap-4">
            {field.options.map((o) => {
              const needs = disabledOptions?.has(o) ?? false;
              return (
                <label
                  key={o}
                  className={`flex items-center gap-2 text-sm ${needs ? "text-slate-500" : "text-slate-900"}`}
                >
                  <input
                    type="checkbox"
                    className="size-4"
                    disabled={needs}
                    checked={!needs && list.includes(o)}
                    onChange={(e) => onChange(e.target.checked ? [...list, o] : list.filter((x) => x !== o))}
                  />
                  {o}
                  {needs ? <span className="text-xs">(not offered here)</span> : null}
                </label>
              );
            })}
          </div>
          {errorEl}
        </fieldset>
      );
    }
    case "select":
      return (
        <div>
          <label htmlFor={id} className="field-label">
            {field.label}
          </label>
          <select
            {...common}
            value={String(value ?? "")}
            onChange={(e) => onChange(e.target.value)}
            className="field-input"
          >
            {field.options.map((o) => (
              <option key={o} value={o} disabled={disabledOptions?.has(o)}>
                {disabledOptions?.has(o) ? `${o} (not offered here)` : o}
              </option>
            ))}
          </select>
          {errorEl}
        </div>
      );
    default: {
      const multiline = field.kind === "textarea" || field.kind === "list";
      return (
        <div>
          <label htmlFor={id} className="field-label">
            {field.label}
            {field.required ? null : <span className="font-normal text-slate-600"> (optional)</span>}
          </label>
          {multiline ? (
            <textarea
              {...common}
              rows={field.kind === "list" ? 4 : 3}
              value={String(value ?? "")}
              placeholder={field.placeholder}
              onChange={(e) => onChange(e.target.value)}
              className="field-input"
            />
          ) : (
            <input
              {...common}
              type={field.kind === "url" ? "url" : "text"}
              inputMode={field.kind === "url" ? "url" : undefined}
              value={String(value ?? "")}
              placeholder={field.placeholder}
              required={field.required}
              onChange={(e) => onChange(e.target.value)}
              className="field-input"
            />
          )}
          {"hint" in field && field.hint ? (
            <p id={`${id}-hint`} className="mt-1 text-sm text-slate-600">
              {field.hint}
            </p>
          ) : null}
          {errorEl}
        </div>
      );
    }
  }
}
