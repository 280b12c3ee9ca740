import { resolveTxt as systemResolveTxt } from "node:dns/promises";
import { eq } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { domains } from "@/lib/db/schema";
import { createGuardedFetch, type GuardedFetch, readPrivateTargetPolicy } from "@/lib/fetch";
import { domainView, requireOwnDomain, VERIFY_FILE_PATH } from "./domains";

export interface VerificationDeps {
  resolveTxt: (name: string) => Promise<string[][]>;
  fetch: GuardedFetch;
  /** Where the proof file of a host is fetched; tests point it at a local fixture server. */
  fileUrl: (hostname: string) => string;
}

const defaults = (): VerificationDeps => ({
  resolveTxt: systemResolveTxt,
  fetch: createGuardedFetch({ allowPrivateTargets: readPrivateTargetPolicy() }),
  fileUrl: (host) => `https://${host}${VERIFY_FILE_PATH}`,
});

const state = globalThis as unknown as { __domainVerificationDeps?: Partial<VerificationDeps> };

/** Tests replace the resolver, the fetcher or the file URL (the API runs in the test's process). */
export function setVerificationDeps(deps: Partial<VerificationDeps> | undefined): void {
  state.__domainVerificationDeps = deps;
}

type Check = { method: "dns_txt" | "file"; ok: boolean; detail: string };

async function checkDns(deps: VerificationDeps, host: string, token: string): Promise<Check> {
  for (const name of [`_findable-verify.${host}`, host]) {
    try {
      const records = (await deps.resolveTxt(name)).map((chunks) => chunks.join("").trim());
      if (records.some((r) => r === token || r === `findable-verify=${token}`)) {
        return { method: "dns_txt", ok: true, detail: `TXT record found at ${name}.` };
      }
    } catch {
      // NXDOMAIN / no TXT: try the next name.
    }
  }
  return {
    method: "dns_txt",
    ok: false,
    detail: `No TXT record with the token at _findable-verify.${host}.`,
  };
}

async function checkFile(deps: VerificationDeps, host: string, token: string): Promise<Check> {
  const url = deps.fileUrl(host);
  try {
    const res = await deps.fetch(url, { timeoutMs: 10_000, maxBytes: 64 * 1024 });
    if (res.status !== 200)
      return { method: "file", ok: false, detail: `${url} answered HTTP ${res.status}.` };
    const found = res
      .text()
      .split(/\r?\n/)
      .some((line) => line.trim() === token);
    return found
      ? { method: "file", ok: true, detail: `Token found at ${url}.` }
      : { method: "file", ok: false, detail: `${url} does not contain the token.` };
  } catch (err) {
    const code = (err as { code?: string }).code ?? "FETCH_FAILED";
    return { method: "file", ok: false, detail: `Could not fetch ${url} (${code}).` };
  }
}

/**
 * POST /domains/{domain}/verify: ownership proven by a DNS TXT record or a file under /.well-known/ holding the
 * domain's token (fetched through the guarded fetcher). An already verified domain stays verified.
 */
export async function verifyDomain(db: Db, accountId: string, input: string) {
  const row = await requireOwnDomain(db, accountId, input);
  const deps = { ...defaults(), ...state.__domainVerificationDeps };
  const checks = [
    await checkDns(deps, row.hostname, row.verificationToken),
    await checkFile(deps, row.hostname, row.verificationToken),
  ];
  const passed = checks.find((c) => c.ok);
  let current = row;
  if (passed && !row.verifiedAt) {
    const [updated] = await db
      .update(domains)
      .set({ verifiedAt: new Date(), verificationMethod: passed.method })
      .where(eq(domains.id, row.id))
      .returning();
    current = updated ?? row;
  }
  return { ...domainView(current), checks };
}
