import type { DbOrTx } from "@/lib/db/client";
import { readCruxConfig } from "@/lib/providers/crux/client";
import { readDataForSeoConfig } from "@/lib/providers/dataforseo";
import { readEngineConfig } from "@/lib/providers/engine-types";
import { ENGINE_CONFIGS, ENGINE_NAMES } from "@/lib/providers/engines";
import { readGoogleConfig } from "@/lib/providers/google";
import { readSmtpConfig } from "@/lib/providers/smtp/config";
import { readStripeConfig } from "@/lib/providers/stripe/config";
import { DATA_ENCRYPTION_ENV, readDataKey } from "@/lib/secrets/data-encryption";
import { CHROME_AVAILABLE } from "@/lib/tools/core-web-vitals/definition";
import type { Env } from "@/lib/tools/types";
import { hasWebgraphSnapshot } from "@/lib/webgraph";

/**
 * One outside service or server fact the service can use, as its operators see it: whether it is set up here,
 * what it enables, and what to set. For the operator page only: customers never see these settings.
 */
export interface Integration {
  id: string;
  name: string;
  configured: boolean;
  /** What customers get once it is set up. */
  enables: string;
  /** Environment variables to set (the first ones required, optional ones marked in `optional`). */
  settings: string[];
  optional?: string[];
  /** How to provide it when it is not a variable (a command, a package). */
  how?: string;
}

function dataKeyReady(env: Env): boolean {
  try {
    return readDataKey(env) !== null;
  } catch {
    return false;
  }
}

const set = (env: Env, name: string) => Boolean(env[name]?.trim());

/** Every integration, configured or not. `env` is the server's environment with the facts checked on disk. */
export async function listIntegrations(db: DbOrTx, env: Env): Promise<Integration[]> {
  const engines: Integration[] = ENGINE_NAMES.map((name) => {
    const c = ENGINE_CONFIGS[name];
    const prefix = c.apiKeyEnv.replace(/_API_KEY$/, "");
    return {
      id: `engine-${name.toLowerCase()}`,
      name: `${name} (AI engine)`,
      configured: readEngineConfig(c, env) !== null,
      enables: `${name} in AI citation checks, brand visibility and monitoring`,
      settings: [c.apiKeyEnv],
      optional: [`${prefix}_BASE_URL`, `${prefix}_MODEL`],
    };
  });
  const webgraph = await hasWebgraphSnapshot(db);
  return [
    ...engines,
    {
      id: "dataforseo",
      name: "DataForSEO",
      configured: readDataForSeoConfig(env) !== null,
      enables: "live search results, keyword metrics, keyword research from seed keywords, backlinks",
      settings: ["DATAFORSEO_LOGIN", "DATAFORSEO_PASSWORD"],
      optional: ["DATAFORSEO_BASE_URL"],
    },
    {
      id: "webgraph",
      name: "Common Crawl web graph",
      configured: webgraph,
      enables: "backlinks overview and domain authority without DataForSEO",
      settings: [],
      how: "npm run admin -- import-webgraph …",
    },
    {
      id: "chromium",
      name: "Chromium",
      configured: env[CHROME_AVAILABLE] === "true",
      enables: "Core Web Vitals lab runs",
      settings: [],
      optional: ["CHROME_PATH"],
      how: "install Chromium at CHROME_PATH (default /usr/bin/chromium)",
    },
    {
      id: "crux",
      name: "Chrome UX Report",
      configured: readCruxConfig(env) !== null,
      enables: "field data beside the Core Web Vitals lab run",
      settings: ["CRUX_API_KEY"],
      optional: ["CRUX_BASE_URL"],
    },
    {
      id: "data-key",
      name: "Data encryption key",
      configured: dataKeyReady(env),
      enables: "customers' connections (Google, Plausible): their credentials are stored encrypted with it",
      settings: [DATA_ENCRYPTION_ENV],
    },
    {
      id: "google",
      name: "Google OAuth client",
      configured: readGoogleConfig(env) !== null,
      enables: "Search Console and GA4 connections (with the data encryption key)",
      settings: ["GOOGLE_CLIENT_ID", "GOOGLE_CLIENT_SECRET"],
    },
    {
      id: "stripe",
      name: "Stripe",
      configured: readStripeConfig(env) !== null,
      enables: "buying credit packs by card",
      settings: ["STRIPE_SECRET_KEY", "STRIPE_WEBHOOK_SECRET"],
      optional: ["STRIPE_API_BASE_URL"],
    },
    {
      id: "smtp",
      name: "Outgoing email (SMTP)",
      configured: readSmtpConfig(env) !== null,
      enables: "verification, password-reset and invitation emails, notices",
      settings: ["SMTP_URL"],
      optional: ["MAIL_FROM"],
    },
    {
      id: "operator-contact",
      name: "Operator contact address",
      configured: set(env, "OPERATOR_CONTACT_EMAIL"),
      enables: "the address customers are shown to buy credits while card payments are closed",
      settings: ["OPERATOR_CONTACT_EMAIL"],
    },
    {
      id: "oauth-sign-in",
      name: "Sign-in with GitHub or Google",
      configured:
        (set(env, "AUTH_GITHUB_ID") && set(env, "AUTH_GITHUB_SECRET")) ||
        (set(env, "AUTH_GOOGLE_ID") && set(env, "AUTH_GOOGLE_SECRET")),
      enables: "the sign-in buttons beside email and password",
      settings: [],
      optional: ["AUTH_GITHUB_ID", "AUTH_GITHUB_SECRET", "AUTH_GOOGLE_ID", "AUTH_GOOGLE_SECRET"],
    },
  ];
}
