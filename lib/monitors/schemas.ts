/**
 * The monitors' API shapes (client-safe: zod and client-safe modules only). The same schemas parse the REST
 * bodies and queries, feed the OpenAPI document and MCP tools, and type the services' answers.
 */
import { z } from "zod";
import { MONITOR_PAUSE_REASONS, MONITOR_RUN_STATUSES, MONITOR_SKIP_REASONS } from "@/lib/db/schema/monitors";
import { competitors, ENGINES, engine, hostname, prompt } from "@/lib/tools/domain-schemas";

export const MONITOR_LIMITS = {
  prompts: 50,
  competitors: 5,
  brandNames: 10,
  samples: { min: 1, max: 10, default: 3 },
  nameChars: 120,
} as const;
export const MONITORS_PAGE = { min: 1, max: 100, default: 20 } as const;
/** Runs per page: a run carries every answer (up to 2,000 with their text), so pages are short. */
export const RUNS_PAGE = { min: 1, max: 20, default: 5 } as const;

export const WEEKDAYS = [
  "sunday",
  "monday",
  "tuesday",
  "wednesday",
  "thursday",
  "friday",
  "saturday",
] as const;

const weekday = z.preprocess(
  (v) => (typeof v === "string" ? v.toLowerCase() : v),
  z.enum(WEEKDAYS, { error: `Must be one of ${WEEKDAYS.join(", ")}.` }),
);

const scheduleInput = z
  .object({
    every: z.enum(["day", "week"], { error: "Must be day or week." }),
    hour: z
      .number({ error: "Must be a whole number from 0 to 23." })
      .int({ error: "Must be a whole number from 0 to 23." })
      .min(0, { error: "Must be a whole number from 0 to 23." })
      .max(23, { error: "Must be a whole number from 0 to 23." }),
    timeZone: z
      .string({ error: "Must be an IANA time zone such as Europe/Paris." })
      .min(1, { error: "Must be an IANA time zone such as Europe/Paris." })
      .max(64, { error: "Must be an IANA time zone such as Europe/Paris." }),
    weekday: weekday.optional(),
  })
  .strict()
  .superRefine((s, ctx) => {
    if (s.every === "week" && s.weekday === undefined) {
      ctx.addIssue({ code: "custom", path: ["weekday"], message: "Required for a weekly schedule." });
    }
    if (s.every === "day" && s.weekday !== undefined) {
      ctx.addIssue({ code: "custom", path: ["weekday"], message: "Only for a weekly schedule." });
    }
  });
export type ScheduleInput = z.output<typeof scheduleInput>;

const prompts = z
  .array(prompt, { error: "Must be an array of prompts." })
  .min(1, { error: "Give at least one prompt." })
  .max(MONITOR_LIMITS.prompts, { error: `At most ${MONITOR_LIMITS.prompts} prompts.` })
  .refine((list) => new Set(list.map((p) => p.toLowerCase())).size === list.length, {
    error: "Prompts must be unique.",
  });

const engines = z
  .array(engine, { error: "Must be an array of engine names." })
  .min(1, { error: "Give at least one engine, or omit engines for every configured one." })
  .max(ENGINES.length, { error: `At most ${ENGINES.length} engines.` })
  .refine((list) => new Set(list).size === list.length, { error: "Engines must be unique." });

const brandNames = z
  .array(
    z
      .string({ error: "Must be a string." })
      .trim()
      .min(2, { error: "At least 2 characters." })
      .max(80, { error: "At most 80 characters." }),
    { error: "Must be an array of names." },
  )
  .max(MONITOR_LIMITS.brandNames, { error: `At most ${MONITOR_LIMITS.brandNames} brand names.` });

const samples = z
  .number({ error: `Must be a whole number from 1 to ${MONITOR_LIMITS.samples.max}.` })
  .int({ error: `Must be a whole number from 1 to ${MONITOR_LIMITS.samples.max}.` })
  .min(1, { error: `Must be a whole number from 1 to ${MONITOR_LIMITS.samples.max}.` })
  .max(MONITOR_LIMITS.samples.max, {
    error: `Must be a whole number from 1 to ${MONITOR_LIMITS.samples.max}.`,
  });

const monthlyCreditCap = z
  .number({ error: "Must be a positive whole number of credits, or null for no cap." })
  .int({ error: "Must be a positive whole number of credits." })
  .positive({ error: "Must be a positive whole number of credits." })
  .max(100_000_000, { error: "At most 100000000." });

const name = z
  .string({ error: "Must be a string." })
  .trim()
  .min(1, { error: "Must not be empty." })
  .max(MONITOR_LIMITS.nameChars, { error: `At most ${MONITOR_LIMITS.nameChars} characters.` });

export const monitorCreateInput = z
  .object({
    domain: hostname,
    name: name.optional(),
    prompts,
    competitors: competitors.optional(),
    brandNames: brandNames.optional(),
    engines: engines.optional(),
    samples: samples.optional(),
    schedule: scheduleInput,
    monthlyCreditCap: monthlyCreditCap.nullable().optional(),
  })
  .strict();
export type MonitorCreateInput = z.output<typeof monitorCreateInput>;

export const monitorUpdateInput = z
  .object({
    name: name.nullable().optional(),
    prompts: prompts.optional(),
    competitors: competitors.optional(),
    brandNames: brandNames.optional(),
    engines: engines.optional(),
    samples: samples.optional(),
    schedule: scheduleInput.optional(),
    monthlyCreditCap: monthlyCreditCap.nullable().optional(),
  })
  .strict()
  .refine((u) => Object.keys(u).length > 0, { error: "Give at least one field to change." });
export type MonitorUpdateInput = z.output<typeof monitorUpdateInput>;

const costEstimate = z.object({
  answersPerRun: z.number().int().describe("prompts × engines × samples"),
  creditsPerRun: z.number().int(),
  creditsPerMonth: z
    .number()
    .int()
    .describe("A month of runs (30 daily or 52/12 weekly, rounded up), before any cap."),
  creditsPerAnswer: z.number().int(),
});
export type CostEstimate = z.infer<typeof costEstimate>;

export const monitorView = z.object({
  id: z.uuid(),
  domain: z.string(),
  name: z.string().nullable(),
  status: z.enum(["active", "paused"]),
  pauseReason: z.enum(MONITOR_PAUSE_REASONS).nullable(),
  prompts: z.array(z.string()),
  competitors: z.array(z.string()),
  brandNames: z.array(z.string()),
  engines: z.array(z.enum(ENGINES)),
  samples: z.number().int(),
  schedule: z.object({
    every: z.enum(["day", "week"]),
    hour: z.number().int(),
    timeZone: z.string(),
    weekday: z.enum(WEEKDAYS).optional(),
  }),
  monthlyCreditCap: z.number().int().nullable(),
  nextRunAt: z.string().nullable().describe("ISO 8601 UTC; null while paused."),
  estimate: costEstimate,
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type MonitorView = z.infer<typeof monitorView>;

export const monitorList = z.object({
  monitors: z.array(monitorView),
  nextCursor: z.string().nullable().describe("Pass as cursor for the next page; null on the last page."),
});
export type MonitorList = z.infer<typeof monitorList>;

const cursor = z.string().max(200).optional();
const pageLimit = (b: { min: number; max: number; default: number }) =>
  z.coerce
    .number({ error: `Must be a whole number from ${b.min} to ${b.max}.` })
    .int({ error: `Must be a whole number from ${b.min} to ${b.max}.` })
    .min(b.min, { error: `Must be a whole number from ${b.min} to ${b.max}.` })
    .max(b.max, { error: `Must be a whole number from ${b.min} to ${b.max}.` })
    .default(b.default);

export const listMonitorsQuery = z
  .object({ limit: pageLimit(MONITORS_PAGE), cursor, domain: hostname.optional() })
  .strict();
export type ListMonitorsQuery = z.output<typeof listMonitorsQuery>;

export const listRunsQuery = z.object({ limit: pageLimit(RUNS_PAGE), cursor }).strict();
export type ListRunsQuery = z.output<typeof listRunsQuery>;

const answerView = z.object({
  engine: z.enum(ENGINES),
  prompt: z.string(),
  sample: z.number().int(),
  status: z.enum(["pending", "running", "succeeded", "failed"]),
  mentioned: z.boolean().nullable(),
  position: z
    .number()
    .int()
    .nullable()
    .describe("1-based order of first mention among the brands named; null when not mentioned"),
  sentiment: z.enum(["positive", "neutral", "negative"]).nullable(),
  sentimentMethod: z.string().nullable(),
  cited: z.array(z.string()).describe("URLs the engine attached to its answer"),
  retrieved: z.array(z.string()).describe("URLs of the search results the engine read"),
  queries: z.array(z.string()).describe("The searches the engine ran, where its API reports them"),
  competitors: z.array(
    z.object({ domain: z.string(), mentioned: z.boolean(), position: z.number().int(), cited: z.boolean() }),
  ),
  answer: z.string().nullable(),
  model: z.string().nullable(),
  error: z.object({ code: z.string(), message: z.string() }).optional(),
});
export type AnswerView = z.infer<typeof answerView>;

const runView = z.object({
  id: z.uuid(),
  monitorId: z.uuid(),
  trigger: z.enum(["schedule", "manual"]),
  status: z.enum(MONITOR_RUN_STATUSES),
  skipReason: z.enum(MONITOR_SKIP_REASONS).nullable(),
  skipDetail: z.record(z.string(), z.unknown()).nullable(),
  scheduledFor: z.string().nullable(),
  answersPlanned: z.number().int(),
  creditsCharged: z.number().int(),
  creditsRefunded: z.number().int(),
  createdAt: z.string(),
  completedAt: z.string().nullable(),
  answers: z.array(answerView),
});
export type RunView = z.infer<typeof runView>;

export const runList = z.object({
  runs: z.array(runView),
  nextCursor: z.string().nullable().describe("Pass as cursor for the next page; null on the last page."),
});
export type RunList = z.infer<typeof runList>;

export const runStarted = z.object({
  id: z.uuid().describe("The run's id"),
  monitorId: z.uuid(),
  status: z.enum(MONITOR_RUN_STATUSES),
  answersPlanned: z.number().int(),
  creditsCharged: z.number().int(),
});
export type RunStarted = z.infer<typeof runStarted>;

export const monitorDeleted = z.object({ id: z.uuid(), deleted: z.literal(true) });

const isoDay = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:\d{2}))?$/, {
    error: "Must be a date (YYYY-MM-DD) or an ISO 8601 time.",
  });

export const reportQuery = z
  .object({
    from: isoDay.optional().describe("Start of the period (inclusive); default 30 days before `to`."),
    to: isoDay
      .optional()
      .describe("End of the period (exclusive; a bare date counts the whole day); default now."),
    compare: z.enum(["previous"], { error: "Must be previous." }).optional(),
    format: z.enum(["json", "csv"], { error: "Must be json or csv." }).default("json"),
  })
  .strict();
export type ReportQuery = z.output<typeof reportQuery>;

const proportion = z.object({
  value: z.number().nullable(),
  n: z.number().int(),
  low: z.number().nullable(),
  high: z.number().nullable(),
});

const change = z.object({ delta: z.number().nullable(), significant: z.boolean() });

const rateSet = z.object({
  answers: z.number().int(),
  mentionRate: proportion,
  citationRate: proportion,
  shareOfVoice: proportion,
  averagePosition: z.object({ value: z.number().nullable(), n: z.number().int() }),
  sentiment: z.object({ positive: z.number().int(), neutral: z.number().int(), negative: z.number().int() }),
  previous: z
    .object({ mentionRate: proportion, citationRate: proportion, shareOfVoice: proportion })
    .optional(),
  change: z.object({ mentionRate: change, citationRate: change, shareOfVoice: change }).optional(),
});
export type RateSet = z.infer<typeof rateSet>;

const DOMAIN_CLASSES = ["own", "competitor", "user_generated", "reference", "news", "other"] as const;
const GROUNDING_STATES = ["not_retrieved", "retrieved_not_cited", "cited"] as const;

export const monitorReport = z.object({
  monitorId: z.uuid(),
  domain: z.string(),
  period: z.object({ from: z.string(), to: z.string() }),
  previousPeriod: z.object({ from: z.string(), to: z.string() }).optional(),
  methods: z.object({
    interval: z.string(),
    change: z.string(),
    shareOfVoice: z.string(),
    sentiment: z.array(z.string()),
  }),
  failedAnswers: z.number().int(),
  total: rateSet,
  byEngine: z.array(rateSet.extend({ engine: z.enum(ENGINES) })),
  byPrompt: z.array(rateSet.extend({ prompt: z.string(), engine: z.enum(ENGINES) })),
  competitors: z.array(rateSet.extend({ domain: z.string() })),
  citedDomains: z.array(
    z.object({ domain: z.string(), count: z.number().int(), class: z.enum(DOMAIN_CLASSES) }),
  ),
  groundingDiff: z.array(
    z.object({
      prompt: z.string(),
      engine: z.enum(ENGINES),
      url: z.string().nullable().describe("A page of the domain; null when no page of it was retrieved"),
      state: z.enum(GROUNDING_STATES),
      retrievedIn: z.number().int(),
      citedIn: z.number().int(),
      answers: z.number().int(),
    }),
  ),
});
export type MonitorReport = z.infer<typeof monitorReport>;

const promptSuggestions = z.object({
  domain: z.string(),
  prompts: z.array(z.object({ prompt: z.string(), source: z.enum(["question", "keyphrase"]) })),
});
export type PromptSuggestions = z.infer<typeof promptSuggestions>;
