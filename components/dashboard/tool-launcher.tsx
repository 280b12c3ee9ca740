"use client";

import { useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useState, useTransition } from "react";
import { JobView } from "@/components/dashboard/job-view";
import { launchToolAction } from "@/lib/actions/launch-tool";
import type { CreditAccountView } from "@/lib/credits/credits";
import type { ToolBlock } from "@/lib/dashboard/tools";
import { getTool, type ToolStatus } from "@/lib/tools/catalog";
import { estimateCost, type FormValues, formToInput, initialFormValues } from "@/lib/tools/form";
import { checkAvailability, type Env, type FieldSpec } from "@/lib/tools/types";
import { setCreditBalance, useCredits } from "./use-credits";

type Values = FormValues;

/**
 * The form's first state, leaving out options this server cannot serve (an engine without its key): the
 * price shown is then the price of a launch that can run.
 */
function startValues(form: readonly FieldSpec[], status?: ToolStatus): Values {
  const values = initialFormValues(form);
  const missing = new Set((status?.requirements ?? []).filter((r) => !r.configured).map((r) => r.label));
  if (missing.size === 0) return values;
  for (const f of form) {
    if (f.kind === "checkboxes") {
      values[f.name] = f.options.filter((o) => !missing.has(o));
    } else if (f.kind === "select" && missing.has(f.default)) {
      values[f.name] = f.options.find((o) => !missing.has(o)) ?? f.default;
    }
  }
  return values;
}

/** What the browser may know of the server's configuration: which required variables are set, not their values. */
function configuredFacts(status?: ToolStatus): Env {
  return Object.fromEntries(
    (status?.requirements ?? []).map((r) => [r.env, r.configured ? "set" : undefined]),
  );
}

/**
 * A tool's launch form, built from its catalogue definition. `status` and `block` are computed on the
 * server (they read the environment) and handed over as plain data. A tool this server cannot run, or an
 * input it cannot serve (an AI engine without its key), keeps the launch button disabled and says what
 * to configure: the dashboard never lets a job be charged only to be refunded.
 */
export function ToolLauncher({
  tool,
  credits,
  status,
  block,
}: {
  tool: string;
  credits: CreditAccountView;
  status?: ToolStatus;
  block?: ToolBlock | null;
}) {
  const info = getTool(tool);
  const queryClient = useQueryClient();
  const balance = useCredits(credits).data?.balance ?? credits.balance;
  const [values, setValues] = useState<Values>(() => startValues(info?.form ?? [], status));
  const [issues, setIssues] = useState<Record<string, string>>({});
  const [message, setMessage] = useState<string | null>(null);
  const [short, setShort] = useState(false);
  const [launched, setLaunched] = useState<{ jobId: string; charged: number } | null>(null);
  const [pending, start] = useTransition();
  if (!info) return null;

  const body = formToInput(info, values);
  const cost = estimateCost(info, body);
  const missing = (status?.requirements ?? []).filter((r) => !r.configured);
  const unconfigured = missing.map((r) => r.label);
  // An option named by a requirement (an AI engine) is disabled while its variable is not set here.
  const disabledOptions = Object.fromEntries(missing.map((r) => [r.label, r.env]));
  // The definition's own check on this input (engines chosen), with which variables are set here.
  const parsedBody = info.input.safeParse(body);
  const refusal = block
    ? null
    : parsedBody.success
      ? checkAvailability(info, parsedBody.data, configuredFacts(status))
      : null;
  const inputRefused = refusal && !refusal.ok ? refusal.reason : null;
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
        {block ? (
          <div className="rounded-md bg-amber-50 p-3 text-sm text-amber-950" data-testid="unavailable-note">
            <p className="font-semibold">This server cannot run {info.title} yet.</p>
            <p className="mt-1">{block.reason}</p>
            {block.settings.length > 0 ? (
              <p className="mt-1">
                To enable it, the operator sets{" "}
                {block.settings.map((s, i) => (
                  <span key={s}>
                    {i > 0 ? (i === block.settings.length - 1 ? " and " : ", ") : null}
                    <code className="font-mono">{s}</code>
                  </span>
                ))}
                .
              </p>
            ) : null}
            <p className="mt-1">Nothing can be launched, so nothing is charged.</p>
          </div>
        ) : unconfigured.length > 0 ? (
          <p className="rounded-md bg-amber-50 p-3 text-sm text-amber-950" data-testid="unconfigured-note">
            Not configured on this server: {unconfigured.join(", ")}. A launch that needs them is refused
            before any charge.
          </p>
        ) : null}
        {info.form.map((f) => (
          <Field
            key={f.name}
            field={f}
            value={values[f.name]}
            error={issues[f.name]}
            disabledOptions={disabledOptions}
            onChange={(v) => set(f.name, v)}
          />
        ))}
        <div className="flex flex-wrap items-center gap-4 border-t border-slate-200 pt-4">
          <button
            type="submit"
            className="btn-primary"
            disabled={pending || Boolean(block) || Boolean(inputRefused)}
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
          <p id="launch-refused" className="rounded-md bg-amber-50 p-3 text-sm text-amber-950">
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
  disabledOptions = {},
  onChange,
}: {
  field: FieldSpec;
  value: string | string[] | boolean | undefined;
  error?: string;
  /** Option → the environment variable that would enable it (unconfigured engines). */
  disabledOptions?: Record<string, string>;
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
              const needs = disabledOptions[o];
              return (
                <label
                  key={o}
                  className={`flex items-center gap-2 text-sm ${needs ? "text-slate-500" : "text-slate-900"}`}
                >
                  <input
                    type="checkbox"
                    className="size-4"
                    disabled={Boolean(needs)}
                    checked={!needs && list.includes(o)}
                    onChange={(e) => onChange(e.target.checked ? [...list, o] : list.filter((x) => x !== o))}
                  />
                  {o}
                  {needs ? <span className="text-xs">(not configured: set {needs})</span> : null}
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
              <option key={o} value={o} disabled={Boolean(disabledOptions[o])}>
                {disabledOptions[o] ? `${o} (not configured: set ${disabledOptions[o]})` : o}
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
