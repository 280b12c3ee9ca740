// A visit's Web Bot Auth signature judged from the keys at hand (never a fetch); signature-step.ts settles
// those whose agent's keys are not known yet.
import type { NewVisit, VerificationMethod } from "@/lib/db/schema";
import type { KeyDirectory } from "@/lib/providers/agent-keys/directory";
import { botSignsAs, browsingAgentFor } from "../catalog/signature-agents";
import {
  prepareSignatureCheck,
  type SignatureCheck,
  type SignedRequest,
  verifySignatureCheck,
} from "../web-bot-auth/signature";
import { agentKeyDirectories, allowHttpDirectory, keySourceOf } from "./key-directory-cache";

export type Check = Extract<SignatureCheck, { kind: "check" }>;
type StoredVerification = "verified" | "unverified" | "unknown";

/** A signed visit whose agent's keys were not at hand when it was stored: settled in the background. */
export interface PendingSignature {
  row: NewVisit;
  check: Check;
  at: Date;
}

/** The rows waiting for a signature's verdict: reverse DNS leaves them to it. */
export const awaitingSignature = new WeakSet<NewVisit>();

/** A key's verdict on a check at the request's time: null when the directory does not hold the key. */
export function verdictWith(
  directory: KeyDirectory,
  check: Check,
  at: Date,
): "verified" | "unverified" | null {
  const agentKey = directory.keys.get(check.keyid);
  if (!agentKey) return null;
  const t = at.getTime() / 1000;
  if (agentKey.notBefore !== null && t < agentKey.notBefore) return "unverified";
  if (agentKey.expires !== null && t > agentKey.expires) return "unverified";
  return verifySignatureCheck(check, agentKey.key, agentKey.alg) ? "verified" : "unverified";
}

/**
 * The agent a signed request names when its user agent names none (a browser's): the bot that browses as the
 * directory its signature resolves through (browsingAgentFor), or null. Whether the signature holds is judged
 * after, as every signed visit's is (judgeSignature).
 */
export function signingAgentOf(signed: SignedRequest): string | null {
  try {
    const check = prepareSignatureCheck(signed, { allowHttpDirectory });
    return check.kind === "check" ? browsingAgentFor(check.directory) : null;
  } catch (error) {
    console.error("signature check failed", error);
    return null;
  }
}

/** A directory fetched this recently is trusted to be complete: a key it lacks is not the agent's. */
export const COMPLETE_FOR_MS = 60_000;

/**
 * The verdict of a visit's Web Bot Auth signature, from the keys at hand (never a fetch): a failing signature
 * disproves the claim ("unverified" as stored: spoofed); a valid one proves it when the signing agent is one the
 * claimed bot's operator signs as. `pending` when the agent's keys are not known yet (the caller stores the
 * visit undecided and settles it later); null when the signature says nothing about the claimed bot.
 */
export function judgeSignature(
  botName: string,
  signed: SignedRequest,
): { verification: StoredVerification; method: VerificationMethod | null; pending?: Check } | null {
  let check: SignatureCheck;
  try {
    check = prepareSignatureCheck(signed, { allowHttpDirectory });
  } catch (error) {
    // A defect here must not fail the batch: the visit is judged by its address.
    console.error("signature check failed", error);
    return null;
  }
  if (check.kind === "invalid") return { verification: "unverified", method: "signature" };
  if (check.kind === "unjudged") return null;
  if (!botSignsAs(botName, check.directory)) return null;
  const directory = agentKeyDirectories.peek(keySourceOf(check));
  if (directory) {
    const verdict = verdictWith(directory, check, signed.at);
    if (verdict) return { verification: verdict, method: "signature" };
    // A key the directory lacks: the agent's, if it was added since the copy was fetched.
    if (agentKeyDirectories.now() - directory.fetchedAt < COMPLETE_FOR_MS) {
      return { verification: "unverified", method: "signature" };
    }
  }
  return { verification: "unknown", method: null, pending: check };
}
