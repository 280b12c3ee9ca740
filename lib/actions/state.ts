// What the dashboard's forms get back from their server actions. Types and one mapper, safe for client code.
import { type ForbiddenError, FormError } from "@/lib/dashboard/errors";

export interface ActionState {
  ok?: boolean;
  error?: string;
  field?: string;
}

export type VerifyState = ActionState & { checks?: { method: string; ok: boolean; detail: string }[] };

export type InviteState = ActionState & {
  link?: string;
  expiresAt?: string;
  /** The address the invitation was emailed to (when one was given and the mail went out). */
  emailedTo?: string;
  emailError?: string;
};

/** A key pair created or rolled: its secret is in this answer only. */
export type KeyPairResult =
  | { ok: true; keyId: string; secret: string }
  | { ok: false; error: string; field?: string };

/** The schedule form: a refused form gets back what was typed, to show it again. */
export type ScheduleFormState = ActionState & { values?: Record<string, string> };

/** A form whose success carries a secret shown once (a webhook signing secret, a legacy token). */
export type SecretState = ActionState & { secret?: string };

export interface AuthFormState {
  error?: string;
  field?: string;
}

/** The sign-up form: `sentTo` once the request is taken (the same answer for a new and a taken address). */
export interface SignUpState extends AuthFormState {
  sentTo?: string;
  /** The link was sent again ("send it again"). */
  resent?: boolean;
}

/** A refusal the form shows next to its field (a form value) or above the form (a role). */
export function toActionState(err: ForbiddenError | FormError): ActionState {
  if (err instanceof FormError) return { error: err.message, field: err.field };
  return { error: err.message };
}
