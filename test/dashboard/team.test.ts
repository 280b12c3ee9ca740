// Team and domain management from the dashboard, against a real database: roles, removals, invitations,
// the last-owner rule, domain removal with its tracking data, pasted domains and the tool launch gate.
import { and, eq } from "drizzle-orm";
import { describe, expect } from "vitest";
import { addDomainAs, domainFromPaste } from "@/lib/dashboard/domains";
import { ForbiddenError, FormError } from "@/lib/dashboard/errors";
import { acceptInvite, createInvite, findOpenInvite } from "@/lib/dashboard/invites";
import { type Actor, getActor } from "@/lib/dashboard/members";
import { signUp } from "@/lib/dashboard/signup";
import {
  changeMemberRole,
  LAST_OWNER_MESSAGE,
  listPendingInvites,
  removeDomain,
  removeMember,
  revokeInvite,
} from "@/lib/dashboard/team";
import type { Db, DbHandle } from "@/lib/db/client";
import { domains, memberships, trackingDailyBots, visits } from "@/lib/db/schema";
import { TOOLS, type ToolName } from "@/lib/tools/catalog";
import { judgeTool } from "@/lib/tools/verdict";
import { ingestEvents } from "@/lib/tracking/ingest/ingest-visits";
import { dbTest } from "@/test/support/fixtures";

const test = dbTest;
let handle: DbHandle;
let db: Db;
let n = 0;
const email = () => `team${++n}-${process.pid}@example.com`;

test.beforeAll(async ({ handle: _handle }) => {
  handle = _handle;
  db = handle.db;
});

async function ownerActor(): Promise<Actor> {
  const { user } = await signUp(db, { email: email(), password: "correct horse battery" });
  return (await getActor(db, user.id))!;
}

async function joinAs(owner: Actor, role: "owner" | "admin" | "member"): Promise<Actor> {
  const { user } = await signUp(db, { email: email(), password: "correct horse battery" });
  const { token } = await createInvite(db, owner, { role });
  await acceptInvite(db, user.id, token);
  return (await getActor(db, user.id, owner.accountId))!;
}

const roleOf = async (a: Actor) =>
  (
    await db
      .select({ role: memberships.role })
      .from(memberships)
      .where(and(eq(memberships.accountId, a.accountId), eq(memberships.userId, a.userId)))
  )[0]?.role ?? null;

describe("roles and removals", () => {
  test("an owner changes a member's role and removes them", async () => {
    const owner = await ownerActor();
    const member = await joinAs(owner, "member");
    await changeMemberRole(db, owner, member.userId, "admin");
    expect(await roleOf(member)).toBe("admin");
    await removeMember(db, owner, member.userId);
    expect(await roleOf(member)).toBeNull();
    expect(await getActor(db, member.userId, owner.accountId)).not.toMatchObject({
      accountId: owner.accountId,
    });
  });

  test("the last owner can be neither demoted nor removed; with a second owner both work", async () => {
    const owner = await ownerActor();
    await expect(changeMemberRole(db, owner, owner.userId, "admin")).rejects.toThrow(LAST_OWNER_MESSAGE);
    await expect(removeMember(db, owner, owner.userId)).rejects.toThrow(LAST_OWNER_MESSAGE);
    expect(await roleOf(owner)).toBe("owner");
    const second = await joinAs(owner, "owner");
    await changeMemberRole(db, second, owner.userId, "member");
    expect(await roleOf(owner)).toBe("member");
    await expect(removeMember(db, second, second.userId)).rejects.toThrow(LAST_OWNER_MESSAGE);
  });

  test("two owners demoting each other at once leave one owner", async () => {
    const a = await ownerActor();
    const b = await joinAs(a, "owner");
    const results = await Promise.allSettled([
      changeMemberRole(db, a, b.userId, "member"),
      changeMemberRole(db, b, a.userId, "member"),
    ]);
    const owners = (await Promise.all([roleOf(a), roleOf(b)])).filter((r) => r === "owner");
    expect(owners).toHaveLength(1);
    expect(results.filter((r) => r.status === "rejected")).toHaveLength(1);
  });

  test("an admin manages members but not owners; a member manages no one", async () => {
    const owner = await ownerActor();
    const admin = await joinAs(owner, "admin");
    const member = await joinAs(owner, "member");
    await expect(changeMemberRole(db, admin, owner.userId, "member")).rejects.toBeInstanceOf(ForbiddenError);
    await expect(removeMember(db, admin, owner.userId)).rejects.toBeInstanceOf(ForbiddenError);
    await expect(changeMemberRole(db, admin, member.userId, "owner")).rejects.toBeInstanceOf(ForbiddenError);
    await expect(removeMember(db, member, admin.userId)).rejects.toBeInstanceOf(ForbiddenError);
    await changeMemberRole(db, admin, member.userId, "admin");
    expect(await roleOf(member)).toBe("admin");
  });

  test("a person of another account cannot be touched", async () => {
    const owner = await ownerActor();
    const stranger = await ownerActor();
    await expect(removeMember(db, owner, stranger.userId)).rejects.toBeInstanceOf(FormError);
    expect(await roleOf(stranger)).toBe("owner");
  });
});

describe("pending invitations", () => {
  test("listed for managers, revoked links stop working, accepted ones leave the list", async () => {
    const owner = await ownerActor();
    const first = await createInvite(db, owner, { email: "a@example.com", role: "member" });
    const second = await createInvite(db, owner, { role: "admin" });
    const list = await listPendingInvites(db, owner);
    expect(list.map((i) => i.role).sort()).toEqual(["admin", "member"]);
    const firstRow = list.find((i) => i.email === "a@example.com")!;
    await revokeInvite(db, owner, firstRow.id);
    expect(await findOpenInvite(db, first.token)).toBeNull();
    await expect(revokeInvite(db, owner, firstRow.id)).rejects.toBeInstanceOf(FormError);
    const { user } = await signUp(db, { email: email(), password: "correct horse battery" });
    await acceptInvite(db, user.id, second.token);
    expect(await listPendingInvites(db, owner)).toEqual([]);
  });

  test("members see none; an admin cannot revoke an owner invitation; other accounts' invites are out of reach", async () => {
    const owner = await ownerActor();
    const admin = await joinAs(owner, "admin");
    const member = await joinAs(owner, "member");
    await expect(listPendingInvites(db, member)).rejects.toBeInstanceOf(ForbiddenError);
    await createInvite(db, owner, { role: "owner" });
    const [ownerInvite] = await listPendingInvites(db, owner);
    await expect(revokeInvite(db, admin, ownerInvite!.id)).rejects.toBeInstanceOf(ForbiddenError);
    const other = await ownerActor();
    await expect(revokeInvite(db, other, ownerInvite!.id)).rejects.toBeInstanceOf(FormError);
    expect(await listPendingInvites(db, owner)).toHaveLength(1);
  });
});

describe("domains", () => {
  test("a pasted URL or www. host becomes the domain meant", () => {
    expect(domainFromPaste("https://www.Shop.example.com/pricing?x=1")).toBe("shop.example.com");
    expect(domainFromPaste("www.shop.example.com/blog")).toBe("shop.example.com");
    expect(domainFromPaste("  WWW.example.org. ")).toBe("example.org");
    expect(domainFromPaste("blog.example.org")).toBe("blog.example.org");
    expect(domainFromPaste("not a domain")).toBeNull();
    expect(domainFromPaste("https://")).toBeNull();
  });

  test("addDomainAs registers the pasted www. URL as the bare domain", async () => {
    const owner = await ownerActor();
    expect((await addDomainAs(db, owner, "https://www.paste.example.com/a/b")).hostname).toBe(
      "paste.example.com",
    );
  });

  test("removing a domain needs its name typed and deletes its tracking data", async () => {
    const owner = await ownerActor();
    const member = await joinAs(owner, "member");
    const domain = await addDomainAs(db, owner, "gone.example.com");
    const gptBot =
      "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.1; +https://openai.com/gptbot)";
    const ingest = await ingestEvents(db, owner.accountId, {
      events: [
        { domain: "gone.example.com", path: "/", userAgent: gptBot, timestamp: new Date().toISOString() },
      ],
    });
    expect(ingest.accepted).toBe(1);
    await expect(removeDomain(db, owner, "gone.example.com", "gone.example")).rejects.toMatchObject({
      field: "confirm",
    });
    await expect(removeDomain(db, member, "gone.example.com", "gone.example.com")).rejects.toBeInstanceOf(
      ForbiddenError,
    );
    const other = await ownerActor();
    await expect(removeDomain(db, other, "gone.example.com", "gone.example.com")).rejects.toBeInstanceOf(
      FormError,
    );
    await removeDomain(db, owner, "gone.example.com", " Gone.Example.com ");
    expect(await db.select().from(domains).where(eq(domains.id, domain.id))).toEqual([]);
    expect(await db.select().from(visits).where(eq(visits.domainId, domain.id))).toEqual([]);
    expect(
      await db.select().from(trackingDailyBots).where(eq(trackingDailyBots.domainId, domain.id)),
    ).toEqual([]);
  });
});

describe("tools this server cannot run", () => {
  test("refused with a reason from the closed list when no input can run, else open", async () => {
    const tool = (name: ToolName) => TOOLS[name];
    const none = await judgeTool(db, tool("ai-citation-check"), {});
    expect(none).toMatchObject({ available: false, refusal: { reason: "engine_not_configured" } });
    expect(none.refusal?.customerMessage).not.toMatch(/[A-Z]{2,}_[A-Z]{2,}/);
    const one = await judgeTool(db, tool("ai-citation-check"), { OPENAI_API_KEY: "k" });
    expect(one.available).toBe(true);
    expect(one.options).toContainEqual({
      option: "engines=Claude",
      available: false,
      reason: "engine_not_configured",
    });
    expect(one.options).toContainEqual({ option: "engines=ChatGPT", available: true });
    const backlinks = await judgeTool(db, tool("backlinks-overview"), {});
    expect(backlinks).toMatchObject({ available: false, refusal: { reason: "provider_not_configured" } });
    expect(
      (await judgeTool(db, tool("backlinks-overview"), { DATAFORSEO_LOGIN: "l", DATAFORSEO_PASSWORD: "p" }))
        .available,
    ).toBe(true);
    const cwv = await judgeTool(db, tool("core-web-vitals"), {});
    expect(cwv).toMatchObject({ available: false, refusal: { reason: "browser_missing" } });
    expect((await judgeTool(db, tool("core-web-vitals"), { CHROME_AVAILABLE: "true" })).available).toBe(true);
    // Keyword research from a URL needs no provider; from seed keywords it does.
    const research = await judgeTool(db, tool("keyword-research"), {});
    expect(research.available).toBe(true);
    expect(research.options).toEqual([
      { option: "url", available: true },
      { option: "keywords", available: false, reason: "provider_not_configured" },
    ]);
    expect(await judgeTool(db, tool("audits"), {})).toEqual({ available: true });
  });
});
