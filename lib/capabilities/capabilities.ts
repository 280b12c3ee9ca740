import { z } from "zod";
import { findConnection } from "@/lib/connections/store";
import type { DbOrTx } from "@/lib/db/client";
import {
  UNAVAILABLE_REASON_TEXT,
  UNAVAILABLE_REASONS,
  type UnavailableReason,
} from "@/lib/errors/unavailable";
import { readCruxConfig } from "@/lib/providers/crux/client";
import { ENGINE_NAMES, listEngines } from "@/lib/providers/engines";
import { readGoogleConfig } from "@/lib/providers/google";
import { readSmtpConfig } from "@/lib/providers/smtp/config";
import { readStripeConfig } from "@/lib/providers/stripe/config";
import { readDataKey } from "@/lib/secrets/data-encryption";
import { TOOL_NAMES, TOOLS, type ToolName } from "@/lib/tools/catalog";
import type { Env } from "@/lib/tools/types";
import { judgeTool, type ToolVerdict } from "@/lib/tools/verdict";

const reason = z.enum(UNAVAILABLE_REASONS).describe("Why it cannot run here (closed list).");

const entry = {
  available: z.boolean(),
  reason: reason.optional(),
  message: z.string().optional().describe("The reason in words, when not available."),
};

const toolCapability = z.object({
  name: z.string().describe("The tool's endpoint name (POST /api/v1/<name>)."),
  title: z.string(),
  ...entry,
  options: z
    .array(z.object({ option: z.string(), available: z.boolean(), reason: reason.optional() }))
    .optional()
    .describe(
      "Present when some choices of the tool cannot run here (an engine, seed keywords): each choice and its verdict.",
    ),
});

const otherCapability = z.object({
  name: z
    .string()
    .describe(
      "engine:<Engine>, search-console, analytics-ga4, analytics-plausible, cwv-field-data, credit-purchases, email.",
    ),
  title: z.string(),
  ...entry,
});

export const capabilitiesResult = z.object({
  tools: z.array(toolCapability),
  capabilities: z.array(otherCapability),
});

export type ToolCapability = z.infer<typeof toolCapability>;
type OtherCapability = z.infer<typeof otherCapability>;
export type Capabilities = z.infer<typeof capabilitiesResult>;

function verdictEntry(available: boolean, why?: UnavailableReason) {
  return available || !why
    ? { available: true }
    : { available: false, reason: why, message: UNAVAILABLE_REASON_TEXT[why] };
}

export function toToolCapability(name: ToolName, v: ToolVerdict): ToolCapability {
  return {
    name,
    title: TOOLS[name].title,
    ...(v.available ? { available: true } : verdictEntry(false, v.refusal?.reason ?? "not_built")),
    ...(v.options ? { options: v.options } : {}),
  };
}

/** Each catalogue tool's verdict (lib/tools/verdict.ts), in catalogue order. */
export async function listToolCapabilities(db: DbOrTx, env: Env): Promise<ToolCapability[]> {
  const out: ToolCapability[] = [];
  for (const name of TOOL_NAMES) out.push(toToolCapability(name, await judgeTool(db, TOOLS[name], env)));
  return out;
}

function dataKeyReady(env: Env): boolean {
  try {
    return readDataKey(env) !== null;
  } catch {
    return false;
  }
}

/**
 * What this server and this account can do: every tool (by the rule job creation applies) and the further
 * capabilities (each AI engine, the connections to the account's own data, field data, buying credits,
 * email). `env` is the server's environment with the facts checked on disk (readServerEnv).
 */
export async function listCapabilities(db: DbOrTx, accountId: string, env: Env): Promise<Capabilities> {
  const tools = await listToolCapabilities(db, env);
  const engines = listEngines(env);
  const keyReady = dataKeyReady(env);
  const googleReady = keyReady && readGoogleConfig(env) !== null;
  const [google, plausible] = await Promise.all([
    findConnection(db, accountId, "google"),
    findConnection(db, accountId, "plausible"),
  ]);
  const connection = (ready: boolean, row: Awaited<ReturnType<typeof findConnection>>) =>
    !ready
      ? verdictEntry(false, "connections_not_configured")
      : row?.status === "active"
        ? verdictEntry(true)
        : verdictEntry(false, "not_connected");
  const capabilities: OtherCapability[] = [
    ...ENGINE_NAMES.map((name) => ({
      name: `engine:${name}`,
      title: `${name} answers`,
      ...verdictEntry(engines.find((e) => e.name === name)?.configured === true, "engine_not_configured"),
    })),
    { name: "search-console", title: "Google Search Console reads", ...connection(googleReady, google) },
    { name: "analytics-ga4", title: "Google Analytics 4 traffic reads", ...connection(googleReady, google) },
    { name: "analytics-plausible", title: "Plausible traffic reads", ...connection(keyReady, plausible) },
    {
      name: "cwv-field-data",
      title: "Core Web Vitals field data (Chrome UX Report)",
      ...verdictEntry(readCruxConfig(env) !== null, "provider_not_configured"),
    },
    {
      name: "credit-purchases",
      title: "Buying credit packs by card",
      ...verdictEntry(readStripeConfig(env) !== null, "payments_not_configured"),
    },
    {
      name: "email",
      title: "Email (verification, password reset, invitations)",
      ...verdictEntry(readSmtpConfig(env) !== null, "email_not_configured"),
    },
  ];
  return { tools, capabilities };
}
