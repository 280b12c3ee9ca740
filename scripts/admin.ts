// npm run admin -- <command> [options]: operator commands; every answer is JSON on stdout.
import { parseArgs } from "node:util";
import { createAccount, getMembers } from "@/lib/accounts/accounts";
import { listDomains, registerDomain } from "@/lib/accounts/domains";
import { findAccount } from "@/lib/accounts/lookup";
import { DEFAULT_RATE_LIMIT } from "@/lib/api/rate-limit";
import { getCreditAccount, grantCredits } from "@/lib/credits/credits";
import { type Db, migrateDatabase, openDatabase } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { describeJobForOperators } from "@/lib/jobs/operator-view";
import {
  createNamedKeyPair,
  findKeyPair,
  getActiveKey,
  keyPairView,
  listKeyPairs,
  revokeKeyPair,
  rollKeyPair,
  rotateKeyPair,
  setKeyRateLimit,
} from "@/lib/keys/keys";
import { createLegacyToken, listLegacyTokens, revokeLegacyToken } from "@/lib/keys/legacy-tokens";
import { keyCreateInput, ROLL_WINDOWS, type RollWindow } from "@/lib/keys/schemas";
import {
  IMPORT_WEBGRAPH_OPTIONS,
  IMPORT_WEBGRAPH_USAGE,
  runImportWebgraphCommand,
} from "@/lib/webgraph/import-command";

const USAGE = `Usage: npm run admin -- <command> [options]

Commands:
  create-account --email <owner email> [--name <name>] [--grant <credits>] [--domain <hostname>]
      New account with the 100 free credits (plus an optional operator grant) and its first key pair.
  add-domain --account <id|owner email> --domain <hostname>
  grant --account <id|owner email> --amount <credits> [--type grant|purchase|adjustment] [--description <text>]
  rotate-key --account <id|owner email> [--name <pair name>] [--rate-limit <requests per minute>]
      Revokes the active pair of that name (default "Default") and prints the new key and secret (shown once).
  list-keys --account <id|owner email>
  create-key --account <id|owner email> --name <pair name>
      A new named pair beside the others; prints its key and secret (shown once).
  roll-key --account <id|owner email> --key <sk_live_… | pair id> [--window none|1h|24h|7d]
      A new pair for an active one; the old one keeps working for the window (none: revoked at once).
  revoke-key --account <id|owner email> --key <sk_live_… | pair id>
  set-key-limit --account <id|owner email> --key <sk_live_… | pair id> --rate-limit <requests per minute|default>
  create-token --account <id|owner email> --name <name>
      A bearer token for the older interface (/api/auth/me, /api/tracking/*, /api/analytics/*); shown once.
  list-tokens --account <id|owner email>
  revoke-token --account <id|owner email> --token <token uuid>
  show --account <id|owner email>
  show-job --job <job id>
      A job as operators see it: state, charge and refunds, its ledger rows and the AI providers' token usage.
${IMPORT_WEBGRAPH_USAGE}

Uses DATABASE_URL when set, else the embedded database in PGLITE_DATA_DIR (default .data/pglite):
through the running server when there is one, else directly (the server waits until the command ends).`;

class UsageError extends Error {}

function need(value: string | undefined, name: string): string {
  if (!value) throw new UsageError(`--${name} is required`);
  return value;
}

function positiveInt(value: string | undefined, name: string): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value) || Number(value) <= 0 || Number(value) > 1_000_000_000) {
    throw new UsageError(`--${name} must be a positive whole number`);
  }
  return Number(value);
}

async function account(db: Db, ref: string | undefined) {
  const found = await findAccount(db, need(ref, "account"));
  if (!found) throw new UsageError(`no account ${ref}`);
  return found;
}

async function keyOf(db: Db, accountId: string, ref: string | undefined) {
  const key = await findKeyPair(db, accountId, need(ref, "key"));
  if (!key) throw new UsageError(`no key pair ${ref} on this account`);
  return key;
}

function parseKeyName(name: string): string {
  const parsed = keyCreateInput.safeParse({ name });
  if (!parsed.success) throw new UsageError(`--name: ${parsed.error.issues[0]?.message ?? "invalid"}`);
  return parsed.data.name;
}

async function show(db: Db, accountId: string) {
  const acct = await findAccount(db, accountId);
  const credits = await getCreditAccount(db, accountId);
  return {
    accountId,
    name: acct?.name,
    balance: credits.balance,
    totalUsed: credits.totalUsed,
    members: await getMembers(db, accountId),
    domains: (await listDomains(db, accountId)).map((d) => ({
      hostname: d.hostname,
      verified: !!d.verifiedAt,
    })),
    apiKey: await getActiveKey(db, accountId),
    keys: (await listKeyPairs(db, accountId)).map((k) =>
      keyPairView(k.key, DEFAULT_RATE_LIMIT, k.replacedBy),
    ),
    recentTransactions: credits.recentTransactions,
  };
}

async function showJob(db: Db, jobId: string) {
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(jobId)) {
    throw new UsageError("--job must be a job id (a UUID)");
  }
  const job = await describeJobForOperators(db, jobId);
  if (!job) throw new UsageError(`no job ${jobId}`);
  return job;
}

async function run(db: Db, command: string | undefined, values: Record<string, string | undefined>) {
  switch (command) {
    case "create-account": {
      const { account: acct, user } = await createAccount(db, {
        ownerEmail: need(values.email, "email"),
        name: values.name,
        extraGrant: positiveInt(values.grant, "grant"),
      });
      const domain = values.domain ? await registerDomain(db, acct.id, values.domain) : null;
      const key = await rotateKeyPair(db, acct.id, { createdByUserId: user.id });
      return {
        accountId: acct.id,
        ownerEmail: user.email,
        balance: acct.creditBalance,
        domain: domain?.hostname ?? null,
        apiKey: key.keyId,
        apiSecret: key.secret,
      };
    }
    case "add-domain": {
      const acct = await account(db, values.account);
      const domain = await registerDomain(db, acct.id, need(values.domain, "domain"));
      return { accountId: acct.id, domain: domain.hostname, verificationToken: domain.verificationToken };
    }
    case "grant": {
      const acct = await account(db, values.account);
      const amount = positiveInt(need(values.amount, "amount"), "amount")!;
      const type = values.type ?? "grant";
      if (type !== "grant" && type !== "purchase" && type !== "adjustment") {
        throw new UsageError("--type must be grant, purchase or adjustment");
      }
      const { balance } = await grantCredits(db, acct.id, amount, {
        type,
        description: values.description ?? `Operator ${type}: ${amount} credits`,
      });
      return { accountId: acct.id, granted: amount, balance };
    }
    case "rotate-key": {
      const acct = await account(db, values.account);
      const key = await rotateKeyPair(db, acct.id, {
        rateLimitPerMinute: positiveInt(values["rate-limit"], "rate-limit"),
        ...(values.name ? { name: values.name } : {}),
      });
      return { accountId: acct.id, apiKey: key.keyId, apiSecret: key.secret, createdAt: key.createdAt };
    }
    case "list-keys": {
      const acct = await account(db, values.account);
      const keys = await listKeyPairs(db, acct.id);
      return {
        accountId: acct.id,
        keys: keys.map((k) => keyPairView(k.key, DEFAULT_RATE_LIMIT, k.replacedBy)),
      };
    }
    case "create-key": {
      const acct = await account(db, values.account);
      const name = parseKeyName(need(values.name, "name"));
      const { row, secret } = await createNamedKeyPair(db, acct.id, { name });
      return { accountId: acct.id, ...keyPairView(row, DEFAULT_RATE_LIMIT), secret };
    }
    case "roll-key": {
      const acct = await account(db, values.account);
      const key = await keyOf(db, acct.id, values.key);
      const window = (values.window ?? "none") as RollWindow;
      if (!ROLL_WINDOWS.includes(window))
        throw new UsageError(`--window must be one of ${ROLL_WINDOWS.join(", ")}`);
      const { row, secret, replaced } = await rollKeyPair(db, acct.id, key.id, { window });
      return {
        accountId: acct.id,
        key: { ...keyPairView(row, DEFAULT_RATE_LIMIT), secret },
        replaced: keyPairView(replaced, DEFAULT_RATE_LIMIT, row.keyId),
      };
    }
    case "revoke-key": {
      const acct = await account(db, values.account);
      const key = await keyOf(db, acct.id, values.key);
      return {
        accountId: acct.id,
        ...keyPairView(await revokeKeyPair(db, acct.id, key.id), DEFAULT_RATE_LIMIT),
      };
    }
    case "set-key-limit": {
      const acct = await account(db, values.account);
      const key = await keyOf(db, acct.id, values.key);
      const raw = need(values["rate-limit"], "rate-limit");
      const limit = raw === "default" ? null : positiveInt(raw, "rate-limit")!;
      const row = await setKeyRateLimit(db, acct.id, key.keyId, limit);
      return { accountId: acct.id, ...keyPairView(row, DEFAULT_RATE_LIMIT) };
    }
    case "create-token": {
      const acct = await account(db, values.account);
      const { token, view } = await createLegacyToken(db, acct.id, { name: need(values.name, "name") });
      return { accountId: acct.id, ...view, token };
    }
    case "list-tokens": {
      const acct = await account(db, values.account);
      return { accountId: acct.id, tokens: await listLegacyTokens(db, acct.id) };
    }
    case "revoke-token": {
      const acct = await account(db, values.account);
      return { accountId: acct.id, ...(await revokeLegacyToken(db, acct.id, need(values.token, "token"))) };
    }
    case "show":
      return show(db, (await account(db, values.account)).id);
    case "show-job":
      return showJob(db, need(values.job, "job"));
    case "import-webgraph":
      return runImportWebgraphCommand(db, values, (message) => new UsageError(message));
    default:
      throw new UsageError(command ? `unknown command: ${command}` : "a command is required");
  }
}

async function main() {
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({
      allowPositionals: true,
      options: {
        email: { type: "string" },
        name: { type: "string" },
        grant: { type: "string" },
        domain: { type: "string" },
        account: { type: "string" },
        job: { type: "string" },
        token: { type: "string" },
        amount: { type: "string" },
        type: { type: "string" },
        description: { type: "string" },
        "rate-limit": { type: "string" },
        key: { type: "string" },
        window: { type: "string" },
        ...IMPORT_WEBGRAPH_OPTIONS,
        help: { type: "boolean", short: "h" },
      },
    });
  } catch (err) {
    console.error(JSON.stringify({ error: (err as Error).message }));
    console.error(USAGE);
    process.exit(2);
  }
  if (parsed.values.help) {
    console.log(USAGE);
    return;
  }
  let handle: Awaited<ReturnType<typeof openDatabase>> | undefined;
  try {
    handle = await openDatabase({ command: "npm run admin" });
    await migrateDatabase(handle);
    const result = await run(
      handle.db,
      parsed.positionals[0],
      parsed.values as Record<string, string | undefined>,
    );
    console.log(JSON.stringify(result, null, 2));
  } catch (err) {
    const message =
      err instanceof UsageError || err instanceof AppError || err instanceof Error
        ? err.message
        : String(err);
    console.error(JSON.stringify({ error: message }));
    if (err instanceof UsageError) console.error(USAGE);
    process.exitCode = err instanceof UsageError || err instanceof AppError ? 2 : 1;
  } finally {
    await handle?.close();
  }
}

await main();
