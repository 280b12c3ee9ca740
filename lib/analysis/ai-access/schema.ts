// The AI access matrix as results carry it (the ai-access tool, the URL audit and the SEO/AEO/GEO audit):
// zod only, so tool definitions and client components can import it.
import { z } from "zod";

const AI_PURPOSES = ["training", "search-index", "user-fetch"] as const;
export type AiPurpose = (typeof AI_PURPOSES)[number];

const ACCESS_STATUSES = ["allowed", "blocked", "partly"] as const;

const yesNo = z.enum(["yes", "no"]);
const yN = z.enum(["y", "n"]);

const aiAccessRow = z.object({
  operator: z.string(),
  /** The robots.txt product token. */
  token: z.string(),
  /** training crawl, search-index crawl, or a fetch a user of the AI product asked for. */
  purpose: z.enum(AI_PURPOSES),
  status: z.enum(ACCESS_STATUSES),
  /** What decides the status, one sentence per mechanism ("robots.txt: …", "server: …", "Content-Signal: …"). */
  by: z.array(z.string()),
});
export type AiAccessRow = z.infer<typeof aiAccessRow>;

const contentSignalEntry = z.object({
  /** The user agents of the robots.txt group the line sits in ("*" for all). */
  userAgents: z.array(z.string()),
  line: z.number().int(),
  raw: z.string(),
  search: yesNo.optional(),
  aiInput: yesNo.optional(),
  aiTrain: yesNo.optional(),
  /** Keys or values the Content Signals policy does not define. */
  unknown: z.array(z.string()),
});

const usagePrefs = z.object({
  trainAi: yN.optional(),
  aiUse: yN.optional(),
  search: yN.optional(),
  /** Labels the vocabulary does not define here (older drafts' labels included). */
  unknown: z.array(z.string()),
});
export type UsagePrefs = z.infer<typeof usagePrefs>;

const robotsDirective = z.object({
  source: z.enum(["meta", "x-robots-tag"]),
  /** "robots" for every crawler, else the crawler the directive names (meta name or X-Robots-Tag prefix). */
  agent: z.string(),
  directives: z.array(z.string()),
});
export type RobotsDirective = z.infer<typeof robotsDirective>;

const tdmReservation = z.union([z.literal(0), z.literal(1)]);
const tdmDeclaration = z.object({ reservation: tdmReservation.nullable(), policy: z.string().nullable() });

/** The TDM Reservation Protocol's declarations for the page checked, and what holds once they are combined. */
const tdmrep = z.object({
  /** /.well-known/tdmrep.json: present when it answered a JSON document; its rules in order, and its issues. */
  file: z.object({
    url: z.string(),
    status: z.number().int().nullable(),
    present: z.boolean(),
    rules: z.array(
      z.object({
        location: z.string(),
        reservation: tdmReservation.nullable(),
        policy: z.string().nullable(),
      }),
    ),
    issues: z.array(z.string()),
  }),
  /** The page's `tdm-reservation` / `tdm-policy` response headers. */
  header: tdmDeclaration.nullable(),
  /** The page's `tdm-reservation` / `tdm-policy` meta tags. */
  meta: tdmDeclaration.nullable(),
  /** The path the declarations are read for: the page asked about. */
  path: z.string(),
  /** 1: text and data mining rights reserved (the EU opt-out); 0: not reserved; null: unset. */
  reservation: tdmReservation.nullable(),
  /** Where a licence may be asked for (only where rights are reserved). */
  policy: z.string().nullable(),
  source: z.enum(["tdmrep.json", "header", "meta"]).nullable(),
});
export type TdmRep = z.infer<typeof tdmrep>;

const serverAnswer = z.object({
  token: z.string(),
  userAgent: z.string(),
  /** HTTP status; null when the request failed. */
  status: z.number().int().nullable(),
  /** A bot-challenge or block page was recognised (its vendor's marker named). */
  challenge: z.string().nullable(),
  /** 403, 429, a challenge page or a failed request while the browser got the page. */
  refused: z.boolean(),
  error: z.string().nullable(),
});

export const aiAccessResult = z.object({
  /** The home page the matrix is about, after redirects. */
  site: z.string(),
  /** The paths robots.txt was evaluated on: the home page and key paths from the sitemap and home-page links. */
  paths: z.array(z.string()),
  rows: z.array(aiAccessRow),
  signals: z.object({
    /** Content-Signal lines of robots.txt (contentsignals.org), with their group. */
    contentSignal: z.array(contentSignalEntry).optional(),
    /** IETF AI preferences (Content-Usage): the HTTP header of the page and robots.txt rules. */
    contentUsage: z
      .object({
        header: z.object({ raw: z.string() }).merge(usagePrefs).nullable(),
        robots: z.array(
          z
            .object({
              userAgents: z.array(z.string()),
              line: z.number().int(),
              path: z.string(),
              raw: z.string(),
            })
            .merge(usagePrefs),
        ),
      })
      .optional(),
    /** X-Robots-Tag headers and robots meta tags of the page, general and crawler-scoped. */
    robotsMeta: z.array(robotsDirective),
    /** TDM Reservation Protocol (W3C): present when the site declares something by any of its techniques. */
    tdmrep: tdmrep.optional(),
  }),
  llmsTxt: z.object({
    present: z.boolean(),
    valid: z.boolean(),
    /** text: a text or markdown file; html: an HTML page (often a soft 404); none: no 2xx answer. */
    servedAs: z.enum(["text", "html", "none"]),
    url: z.string(),
    status: z.number().int().nullable(),
    issues: z.array(z.string()),
    full: z.object({
      present: z.boolean(),
      servedAs: z.enum(["text", "html", "none"]),
      url: z.string(),
      status: z.number().int().nullable(),
    }),
  }),
  /** The home page fetched with each probed crawler's user agent and with a browser's. */
  serverAnswers: z.object({
    browser: z.object({ status: z.number().int().nullable(), challenge: z.string().nullable() }),
    bots: z.array(serverAnswer),
  }),
  contradictions: z.array(
    z.object({ message: z.string(), operator: z.string().optional(), token: z.string().optional() }),
  ),
  /** Whether bot visits recorded by tracking for this domain were read (the domain registered to the account). */
  tracking: z.object({ used: z.boolean(), days: z.number().int() }),
});
export type AiAccess = z.infer<typeof aiAccessResult>;
