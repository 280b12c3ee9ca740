// One wrapper for every server action (the pattern of Dub's safe-action client): it checks the request's
// origin, resolves the session, the account and the member's role once, refuses a role below the action's,
// and parses the input with the action's zod schema. Services keep their own role checks as a second line.
import type { z } from "zod";
import { ForbiddenError, FormError } from "@/lib/dashboard/errors";
import type { Actor } from "@/lib/dashboard/members";
import type { Db } from "@/lib/db/client";
import { redactDbError } from "@/lib/db/errors";
import type { Role } from "@/lib/db/schema";
import { findUnsafeText } from "@/lib/errors";
import { isSameOriginRequest } from "./origin";

export interface ActionDeps {
  /** The headers of the request that carries the action. */
  requestHeaders: () => Promise<Headers>;
  /** The signed-in actor; redirects (throws) when there is none. */
  requireActor: () => Promise<{ db: Db; actor: Actor }>;
  trustedOrigins?: () => readonly string[];
}

export interface ActorActionContext<I> {
  db: Db;
  actor: Actor;
  input: I;
}

/** Least role each role satisfies: an owner may do what an admin may, an admin what a member may. */
const ROLE_RANK: Record<Role, number> = { owner: 0, admin: 1, member: 2 };

/** A request from another site; the action does not run. */
export class CrossSiteActionError extends Error {
  constructor() {
    super("This request did not come from the dashboard's own pages.");
    this.name = "CrossSiteActionError";
  }
}

/**
 * An action that failed on the server's side (a database or programming error). Its message says nothing of
 * the input: the cause is logged, redacted, by the action client, and Next prints only this.
 */
export class ActionFailedError extends Error {
  constructor() {
    super("The action could not be completed. Try again in a moment.");
    this.name = "ActionFailedError";
  }
}

/** Next's own control flow (redirect(), notFound(), dynamic rendering bail-outs) carries a string `digest`. */
const isFrameworkSignal = (err: unknown) =>
  typeof err === "object" && err !== null && typeof (err as { digest?: unknown }).digest === "string";

/**
 * Anything but a refusal or Next's control flow: logged without the statement's parameters (a failed insert's
 * message holds every value, a password hash too), then replaced by an error that carries none of it.
 */
function failed(err: unknown): never {
  if (isFrameworkSignal(err) || err instanceof CrossSiteActionError) throw err;
  const redacted = redactDbError(err);
  // A programming error keeps its stack; a statement quoted inside some other error's text loses its values.
  const text =
    redacted instanceof Error
      ? (redacted.stack ?? `${redacted.name}: ${redacted.message}`)
      : JSON.stringify(redacted);
  console.error("[action] failed:", text.replace(/(Failed query:|params:)[\s\S]*/i, "$1 [redacted]"));
  throw new ActionFailedError();
}

/**
 * The first zod issue as a form error naming its field. Text with NUL or an unpaired surrogate is refused
 * first, wherever it sits (a tool's nested input too), as the API refuses it.
 */
function parseInput<S extends z.ZodType>(schema: S, raw: unknown): z.output<S> {
  const unsafe = findUnsafeText(raw);
  if (unsafe !== null) {
    const field = unsafe.split(".")[0] || undefined;
    throw new FormError("This field contains characters that are not allowed.", field);
  }
  const parsed = schema.safeParse(raw);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const field = issue?.path.map(String).join(".") || undefined;
  throw new FormError(issue?.message ?? "Invalid input.", field);
}

export function createActionClient(deps: ActionDeps) {
  async function requireSameOrigin(): Promise<void> {
    const trusted = deps.trustedOrigins?.();
    if (!isSameOriginRequest(await deps.requestHeaders(), trusted)) throw new CrossSiteActionError();
  }

  /** An action for a signed-in member whose role is at least `role`. */
  function actorAction<S extends z.ZodType, R>(
    spec: { input: S; role: Role; refused: (err: ForbiddenError | FormError) => R },
    run: (ctx: ActorActionContext<z.output<S>>) => Promise<R>,
  ): (raw: unknown) => Promise<R> {
    return async (raw) => {
      await requireSameOrigin();
      const { db, actor } = await deps.requireActor();
      try {
        if (ROLE_RANK[actor.role] > ROLE_RANK[spec.role]) throw new ForbiddenError();
        return await run({ db, actor, input: parseInput(spec.input, raw) });
      } catch (err) {
        if (err instanceof ForbiddenError || err instanceof FormError) return spec.refused(err);
        return failed(err);
      }
    };
  }

  /** An action anyone may call (sign-in, sign-up): the origin check and the input schema only. */
  function publicAction<S extends z.ZodType, R>(
    spec: { input: S; refused: (err: FormError) => R },
    run: (input: z.output<S>) => Promise<R>,
  ): (raw: unknown) => Promise<R> {
    return async (raw) => {
      await requireSameOrigin();
      try {
        return await run(parseInput(spec.input, raw));
      } catch (err) {
        if (err instanceof FormError) return spec.refused(err);
        return failed(err);
      }
    };
  }

  return { actorAction, publicAction };
}

/** A form's fields as a plain object for the action's schema (a repeated name keeps its last value). */
export function formFields(form: FormData): Record<string, FormDataEntryValue> {
  return Object.fromEntries(form.entries());
}
