// The action client against a real database: origin check, session, role and input schema, in that order.
import { describe, expect } from "vitest";
import { z } from "zod";
import { CrossSiteActionError, createActionClient } from "@/lib/actions/client";
import { toActionState } from "@/lib/actions/state";
import { acceptInvite, createInvite } from "@/lib/dashboard/invites";
import { type Actor, getActor } from "@/lib/dashboard/members";
import { signUp } from "@/lib/dashboard/signup";
import type { Db, DbHandle } from "@/lib/db/client";
import { dbTest } from "@/test/support/fixtures";

const test = dbTest;
let handle: DbHandle;
let db: Db;
let owner: Actor;
let member: Actor;
let n = 0;
const email = () => `act${++n}-${process.pid}@example.com`;

test.beforeAll(async ({ handle: _handle }) => {
  handle = _handle;
  db = handle.db;
  const a = await signUp(db, { email: email(), password: "correct horse battery" });
  owner = (await getActor(db, a.user.id))!;
  const b = await signUp(db, { email: email(), password: "correct horse battery" });
  const { token } = await createInvite(db, owner, { role: "member" });
  await acceptInvite(db, b.user.id, token);
  member = (await getActor(db, b.user.id, owner.accountId))!;
});

const SAME = new Headers({ origin: "https://app.example", host: "app.example" });
const CROSS = new Headers({ origin: "https://evil.example", host: "app.example" });

function client(actor: Actor, headers = SAME) {
  let sessions = 0;
  const c = createActionClient({
    requestHeaders: async () => headers,
    requireActor: async () => {
      sessions++;
      return { db, actor };
    },
    trustedOrigins: () => [],
  });
  return { ...c, sessions: () => sessions };
}

const input = z.object({ name: z.string().min(2, "Name too short.") });

describe("actorAction", () => {
  test("runs with the actor and the parsed input, resolving the session once", async () => {
    const c = client(owner);
    const action = c.actorAction({ input, role: "admin", refused: toActionState }, async (ctx) => ({
      ok: true,
      error: `${ctx.actor.accountId}:${ctx.input.name}`,
    }));
    expect(await action({ name: "Ada", extra: 1 })).toEqual({ ok: true, error: `${owner.accountId}:Ada` });
    expect(c.sessions()).toBe(1);
  });

  test("refuses a role below the action's before running it", async () => {
    let ran = false;
    const action = client(member).actorAction({ input, role: "admin", refused: toActionState }, async () => {
      ran = true;
      return { ok: true };
    });
    expect(await action({ name: "Ada" })).toEqual({
      error: "Only an owner or admin of the account can do this.",
    });
    expect(ran).toBe(false);
  });

  test("a member may run a member action", async () => {
    const action = client(member).actorAction(
      { input, role: "member", refused: toActionState },
      async () => ({
        ok: true,
      }),
    );
    expect(await action({ name: "Ada" })).toEqual({ ok: true });
  });

  test("an input the schema refuses names its field", async () => {
    const action = client(owner).actorAction({ input, role: "member", refused: toActionState }, async () => ({
      ok: true,
    }));
    expect(await action({ name: "A" })).toEqual({ error: "Name too short.", field: "name" });
  });

  test("a cross-site request is refused before the session is read", async () => {
    const c = client(owner, CROSS);
    const action = c.actorAction({ input, role: "member", refused: toActionState }, async () => ({
      ok: true,
    }));
    await expect(action({ name: "Ada" })).rejects.toBeInstanceOf(CrossSiteActionError);
    expect(c.sessions()).toBe(0);
  });
});

describe("publicAction", () => {
  test("checks the origin and the input, without a session", async () => {
    const ok = client(owner).publicAction({ input, refused: toActionState }, async (i) => ({
      error: i.name,
    }));
    expect(await ok({ name: "Ada" })).toEqual({ error: "Ada" });
    expect(await ok({})).toMatchObject({ field: "name" });
    const cross = client(owner, new Headers({ host: "app.example" })).publicAction(
      { input, refused: toActionState },
      async () => ({ ok: true }),
    );
    await expect(cross({ name: "Ada" })).rejects.toBeInstanceOf(CrossSiteActionError);
  });
});
