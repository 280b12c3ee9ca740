"use client";

import { useRouter } from "next/navigation";
import { useEffect, useId, useState, useTransition } from "react";
import {
  createMonitorAction,
  type MonitorSavedState,
  suggestPromptsAction,
  updateMonitorAction,
} from "@/lib/actions/monitors";
import { formatNumber } from "@/lib/dashboard/format";
import { estimateCost } from "@/lib/monitors/estimate";

const WEEKDAYS = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"] as const;
type Weekday = (typeof WEEKDAYS)[number];
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;
const HOURS = Array.from({ length: 24 }, (_, h) => h);
const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

export interface MonitorFormLimits {
  prompts: number;
  competitors: number;
  samplesMax: number;
  samplesDefault: number;
}

export interface MonitorFormInitial {
  id: string;
  domain: string;
  name: string | null;
  prompts: string[];
  competitors: string[];
  brandNames: string[];
  engines: string[];
  samples: number;
  schedule: { every: "day" | "week"; hour: number; timeZone: string; weekday?: Weekday };
  monthlyCreditCap: number | null;
}

interface PromptRow {
  text: string;
  checked: boolean;
  source: "yours" | "question" | "keyphrase";
}

const lines = (text: string) =>
  text
    .split(/[\n,]/)
    .map((s) => s.trim())
    .filter(Boolean);

/**
 * The monitor's create and edit form: the prompts (the site's ten suggestions offered as checkboxes, or written
 * here), the engines this service can ask, samples, schedule in the browser's time zone and an optional cap, with
 * the cost of a run and of a month recomputed as the form changes (the service's own formula).
 */
export function MonitorForm({
  domains,
  engines,
  limits,
  initial,
}: {
  domains: string[];
  engines: string[];
  limits: MonitorFormLimits;
  initial?: MonitorFormInitial;
}) {
  const router = useRouter();
  const ids = useId();
  const [domain, setDomain] = useState(initial?.domain ?? domains[0] ?? "");
  const [name, setName] = useState(initial?.name ?? "");
  const [brandNames, setBrandNames] = useState((initial?.brandNames ?? []).join(", "));
  const [competitors, setCompetitors] = useState((initial?.competitors ?? []).join("\n"));
  const [prompts, setPrompts] = useState<PromptRow[]>(
    (initial?.prompts ?? []).map((text) => ({ text, checked: true, source: "yours" })),
  );
  const [draft, setDraft] = useState("");
  const [chosenEngines, setChosenEngines] = useState<string[]>(
    initial ? initial.engines.filter((e) => engines.includes(e)) : engines,
  );
  const [samples, setSamples] = useState(String(initial?.samples ?? limits.samplesDefault));
  const [every, setEvery] = useState<"day" | "week">(initial?.schedule.every ?? "day");
  const [hour, setHour] = useState(String(initial?.schedule.hour ?? 8));
  const [timeZone, setTimeZone] = useState(initial?.schedule.timeZone ?? "UTC");
  const [zones, setZones] = useState<string[]>([initial?.schedule.timeZone ?? "UTC"]);
  const [weekday, setWeekday] = useState<Weekday>(initial?.schedule.weekday ?? "monday");
  const [monthlyCap, setMonthlyCap] = useState(
    initial?.monthlyCreditCap ? String(initial.monthlyCreditCap) : "",
  );
  const [state, setState] = useState<MonitorSavedState>({});
  const [suggestError, setSuggestError] = useState<string | null>(null);
  const [saving, startSaving] = useTransition();
  const [suggesting, startSuggesting] = useTransition();

  // The browser's zone is preselected for a new monitor; the list is the browser's own (hence after mount).
  useEffect(() => {
    const own = Intl.DateTimeFormat().resolvedOptions().timeZone;
    const all = typeof Intl.supportedValuesOf === "function" ? Intl.supportedValuesOf("timeZone") : [];
    const current = initial?.schedule.timeZone ?? own ?? "UTC";
    setZones([...new Set([current, "UTC", ...all])].sort());
    if (!initial && own) setTimeZone(own);
  }, [initial]);

  const selected = prompts.filter((p) => p.checked).map((p) => p.text);
  const samplesN = Number(samples);
  // The service's own formula (lib/monitors/estimate.ts), recomputed on every change of the form.
  const estimate =
    Number.isInteger(samplesN) && samplesN >= 1 && samplesN <= limits.samplesMax
      ? estimateCost({ prompts: selected, engines: chosenEngines, samples: samplesN, every })
      : null;
  const capN = monthlyCap.trim() === "" ? null : Number(monthlyCap);

  function addPrompt() {
    const text = draft.trim().replace(/\s+/g, " ");
    if (!text) return;
    setPrompts((list) =>
      list.some((p) => p.text.toLowerCase() === text.toLowerCase())
        ? list.map((p) => (p.text.toLowerCase() === text.toLowerCase() ? { ...p, checked: true } : p))
        : [...list, { text, checked: true, source: "yours" }],
    );
    setDraft("");
  }

  function suggest() {
    setSuggestError(null);
    startSuggesting(async () => {
      const res = await suggestPromptsAction(domain);
      if (!res.ok || !res.prompts) {
        setSuggestError(res.error ?? "No prompts could be suggested.");
        return;
      }
      const found = res.prompts;
      setPrompts((list) => {
        const known = new Set(list.map((p) => p.text.toLowerCase()));
        return [
          ...list,
          ...found
            .filter((p) => !known.has(p.prompt.toLowerCase()))
            .map((p) => ({ text: p.prompt, checked: false, source: p.source })),
        ];
      });
      if (found.length === 0) setSuggestError("The site gave no questions or keyphrases to suggest from.");
    });
  }

  function submit(e: React.FormEvent) {
    e.preventDefault();
    const schedule = {
      every,
      hour: Number(hour),
      timeZone,
      ...(every === "week" ? { weekday } : {}),
    };
    const body = {
      ...(name.trim() ? { name: name.trim() } : initial ? { name: null } : {}),
      prompts: selected,
      competitors: lines(competitors),
      ...(lines(brandNames).length > 0 || initial ? { brandNames: lines(brandNames) } : {}),
      engines: chosenEngines,
      samples: samplesN,
      schedule,
      monthlyCreditCap: monthlyCap.trim() === "" ? null : Number(monthlyCap),
    };
    startSaving(async () => {
      const res = initial
        ? await updateMonitorAction(initial.id, body)
        : await createMonitorAction({ domain, ...body });
      setState(res);
      if (res.ok && res.id) router.push(`/dashboard/monitors/${res.id}`);
    });
  }

  const fieldId = (f: string) => `${ids}-${f}`;
  const errorFor = (...fields: string[]) =>
    state.error && state.field && fields.some((f) => state.field === f || state.field?.startsWith(`${f}.`))
      ? state.error
      : null;
  const invalid = (...fields: string[]) => (errorFor(...fields) ? true : undefined);
  const fieldError = (field: string) => {
    const msg = errorFor(field);
    return msg ? (
      <p id={fieldId(`${field}-error`)} className="field-error" role="alert">
        {msg}
      </p>
    ) : null;
  };
  const describedBy = (f: string) => (errorFor(f) ? fieldId(`${f}-error`) : undefined);
  const known = [
    "domain",
    "name",
    "brandNames",
    "competitors",
    "prompts",
    "engines",
    "samples",
    "schedule",
    "monthlyCreditCap",
  ];
  const generalError = state.error && !known.some((f) => errorFor(f)) ? state.error : null;

  return (
    <form onSubmit={submit} className="space-y-6" noValidate>
      <div className="grid gap-4 sm:grid-cols-2">
        <div>
          <label htmlFor={fieldId("domain")} className="field-label">
            Domain
          </label>
          {initial ? (
            <p id={fieldId("domain")} className="mt-1 text-sm text-slate-900">
              {initial.domain}
            </p>
          ) : (
            <select
              id={fieldId("domain")}
              className="field-input"
              value={domain}
              onChange={(e) => setDomain(e.target.value)}
              aria-invalid={invalid("domain")}
              aria-describedby={describedBy("domain")}
            >
              {domains.map((d) => (
                <option key={d}>{d}</option>
              ))}
            </select>
          )}
          {fieldError("domain")}
        </div>
        <div>
          <label htmlFor={fieldId("name")} className="field-label">
            Name (optional)
          </label>
          <input
            id={fieldId("name")}
            className="field-input"
            value={name}
            maxLength={120}
            onChange={(e) => setName(e.target.value)}
            placeholder="Shown in alerts instead of the domain"
            aria-invalid={invalid("name")}
            aria-describedby={describedBy("name")}
          />
          {fieldError("name")}
        </div>
        <div>
          <label htmlFor={fieldId("brandNames")} className="field-label">
            Brand names
          </label>
          <input
            id={fieldId("brandNames")}
            className="field-input"
            value={brandNames}
            onChange={(e) => setBrandNames(e.target.value)}
            placeholder="Empty: the site's own name"
            aria-invalid={invalid("brandNames")}
            aria-describedby={describedBy("brandNames") ?? fieldId("brandNames-hint")}
          />
          <p id={fieldId("brandNames-hint")} className="mt-1 text-xs text-slate-600">
            Separate names with commas. Left empty, the names are read from the site and its domain.
          </p>
          {fieldError("brandNames")}
        </div>
        <div>
          <label htmlFor={fieldId("competitors")} className="field-label">
            Competitor domains (up to {limits.competitors})
          </label>
          <textarea
            id={fieldId("competitors")}
            className="field-input"
            rows={3}
            value={competitors}
            onChange={(e) => setCompetitors(e.target.value)}
            placeholder={"rival.example\nother-brand.example"}
            aria-invalid={invalid("competitors")}
            aria-describedby={describedBy("competitors")}
          />
          {fieldError("competitors")}
        </div>
      </div>

      <fieldset aria-describedby={describedBy("prompts")}>
        <legend className="field-label">
          Prompts ({selected.length} of at most {limits.prompts})
        </legend>
        <div className="mt-2 flex flex-wrap items-center gap-2">
          <button
            type="button"
            className="btn-secondary"
            onClick={suggest}
            disabled={suggesting || !domain}
            aria-describedby={suggestError ? fieldId("suggest-error") : undefined}
          >
            {suggesting ? "Reading the site…" : "Suggest 10 prompts from the site"}
          </button>
          {suggestError ? (
            <p id={fieldId("suggest-error")} className="text-sm text-red-800" role="alert">
              {suggestError}
            </p>
          ) : null}
        </div>
        {prompts.length > 0 ? (
          <ul className="mt-3 space-y-2" data-testid="prompt-list">
            {prompts.map((p, i) => (
              <li key={p.text} className="flex items-start gap-2 text-sm">
                <input
                  id={fieldId(`prompt-${i}`)}
                  type="checkbox"
                  className="mt-1"
                  checked={p.checked}
                  onChange={(e) =>
                    setPrompts((list) =>
                      list.map((q, j) => (j === i ? { ...q, checked: e.target.checked } : q)),
                    )
                  }
                />
                <label htmlFor={fieldId(`prompt-${i}`)} className="min-w-0 break-words text-slate-800">
                  {p.text}
                  {p.source !== "yours" ? (
                    <span className="ml-2 text-xs text-slate-600">
                      suggested from the site's {p.source === "question" ? "questions" : "keyphrases"}
                    </span>
                  ) : null}
                </label>
              </li>
            ))}
          </ul>
        ) : null}
        <div className="mt-3 flex flex-wrap items-end gap-2">
          <div className="min-w-0 flex-1">
            <label htmlFor={fieldId("draft")} className="field-label">
              Add a prompt
            </label>
            <input
              id={fieldId("draft")}
              className="field-input"
              value={draft}
              maxLength={2000}
              onChange={(e) => setDraft(e.target.value)}
              onKeyDown={(e) => {
                if (e.key === "Enter") {
                  e.preventDefault();
                  addPrompt();
                }
              }}
              placeholder="Which coffee roaster delivers in Berlin?"
            />
          </div>
          <button type="button" className="btn-secondary" onClick={addPrompt}>
            Add
          </button>
        </div>
        {fieldError("prompts")}
      </fieldset>

      <div className="grid gap-4 sm:grid-cols-2">
        <fieldset aria-describedby={describedBy("engines")}>
          <legend className="field-label">Engines</legend>
          {engines.length === 0 ? (
            <p className="mt-1 text-sm text-slate-700">
              No AI engine is available on this service yet, so nothing can be monitored.
            </p>
          ) : (
            <div className="mt-1 flex flex-wrap gap-4 text-sm">
              {engines.map((e) => (
                <label key={e} className="flex items-center gap-2">
                  <input
                    type="checkbox"
                    checked={chosenEngines.includes(e)}
                    onChange={(ev) =>
                      setChosenEngines((list) =>
                        ev.target.checked
                          ? engines.filter((x) => x === e || list.includes(x))
                          : list.filter((x) => x !== e),
                      )
                    }
                  />
                  {e}
                </label>
              ))}
            </div>
          )}
          {fieldError("engines")}
        </fieldset>
        <div>
          <label htmlFor={fieldId("samples")} className="field-label">
            Samples per prompt and engine
          </label>
          <input
            id={fieldId("samples")}
            type="number"
            min={1}
            max={limits.samplesMax}
            className="field-input"
            value={samples}
            onChange={(e) => setSamples(e.target.value)}
            aria-invalid={invalid("samples")}
            aria-describedby={describedBy("samples") ?? fieldId("samples-hint")}
          />
          <p id={fieldId("samples-hint")} className="mt-1 text-xs text-slate-600">
            Engines answer differently each time; more samples narrow the intervals (1 to {limits.samplesMax}
            ).
          </p>
          {fieldError("samples")}
        </div>
      </div>

      <fieldset>
        <legend className="field-label">Schedule</legend>
        <div className="mt-1 grid gap-4 sm:grid-cols-4">
          <div>
            <label htmlFor={fieldId("every")} className="field-label">
              Every
            </label>
            <select
              id={fieldId("every")}
              className="field-input"
              value={every}
              onChange={(e) => setEvery(e.target.value === "week" ? "week" : "day")}
            >
              <option value="day">Day</option>
              <option value="week">Week</option>
            </select>
          </div>
          {every === "week" ? (
            <div>
              <label htmlFor={fieldId("weekday")} className="field-label">
                Weekday
              </label>
              <select
                id={fieldId("weekday")}
                className="field-input"
                value={weekday}
                onChange={(e) => setWeekday(e.target.value as Weekday)}
              >
                {WEEKDAYS.map((d) => (
                  <option key={d} value={d}>
                    {cap(d)}
                  </option>
                ))}
              </select>
            </div>
          ) : null}
          <div>
            <label htmlFor={fieldId("hour")} className="field-label">
              At
            </label>
            <select
              id={fieldId("hour")}
              className="field-input"
              value={hour}
              onChange={(e) => setHour(e.target.value)}
            >
              {HOURS.map((h) => (
                <option key={h} value={h}>
                  {`${String(h).padStart(2, "0")}:00`}
                </option>
              ))}
            </select>
          </div>
          <div className="min-w-0">
            <label htmlFor={fieldId("timeZone")} className="field-label">
              Time zone
            </label>
            <select
              id={fieldId("timeZone")}
              className="field-input"
              value={timeZone}
              onChange={(e) => setTimeZone(e.target.value)}
              aria-invalid={invalid("schedule")}
              aria-describedby={describedBy("schedule")}
            >
              {zones.map((z) => (
                <option key={z}>{z}</option>
              ))}
            </select>
          </div>
        </div>
        <p className="mt-1 text-xs text-slate-600">
          Runs start within that hour; they are spread over it so that engines are not all asked at once.
        </p>
        {fieldError("schedule")}
      </fieldset>

      <div className="max-w-xs">
        <label htmlFor={fieldId("cap")} className="field-label">
          Monthly credit cap (optional)
        </label>
        <input
          id={fieldId("cap")}
          type="number"
          min={1}
          className="field-input"
          value={monthlyCap}
          onChange={(e) => setMonthlyCap(e.target.value)}
          aria-invalid={invalid("monthlyCreditCap")}
          aria-describedby={describedBy("monthlyCreditCap") ?? fieldId("cap-hint")}
        />
        <p id={fieldId("cap-hint")} className="mt-1 text-xs text-slate-600">
          A run that would pass the cap is skipped, not charged, and you are told.
        </p>
        {fieldError("monthlyCreditCap")}
      </div>

      <section
        aria-labelledby={fieldId("estimate")}
        className="rounded-md border border-indigo-200 bg-indigo-50 p-4 text-sm text-indigo-950"
      >
        <h2 id={fieldId("estimate")} className="font-semibold">
          Cost estimate
        </h2>
        {estimate ? (
          <dl className="mt-2 grid grid-cols-3 gap-2" aria-live="polite" data-testid="monitor-estimate">
            <div>
              <dt className="text-xs">Answers per run</dt>
              <dd className="text-lg font-semibold" data-testid="estimate-answers">
                {formatNumber(estimate.answersPerRun)}
              </dd>
            </div>
            <div>
              <dt className="text-xs">Credits per run</dt>
              <dd className="text-lg font-semibold" data-testid="estimate-run">
                {formatNumber(estimate.creditsPerRun)}
              </dd>
            </div>
            <div>
              <dt className="text-xs">Credits per month</dt>
              <dd className="text-lg font-semibold" data-testid="estimate-month">
                {formatNumber(estimate.creditsPerMonth)}
              </dd>
            </div>
          </dl>
        ) : (
          <p className="mt-2">Give a number of samples from 1 to {limits.samplesMax} to see the cost.</p>
        )}
        {estimate ? (
          <p className="mt-2 text-xs">
            {plural(selected.length, "prompt")} × {plural(chosenEngines.length, "engine")} ×{" "}
            {plural(samplesN, "sample")} × {estimate.creditsPerAnswer} credits per answer; a month is{" "}
            {every === "day" ? "30 daily runs" : "52 ÷ 12 weekly runs"}.
            {capN && Number.isFinite(capN) && capN < estimate.creditsPerMonth
              ? ` Your cap of ${formatNumber(capN)} credits will skip the runs past it.`
              : ""}{" "}
            Failed answers are refunded.
          </p>
        ) : null}
      </section>

      {generalError ? (
        <p className="text-sm text-red-800" role="alert">
          {generalError}
        </p>
      ) : null}
      <button type="submit" className="btn-primary" disabled={saving}>
        {saving ? "Saving…" : initial ? "Save changes" : "Create monitor"}
      </button>
    </form>
  );
}
