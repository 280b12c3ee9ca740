"use server";
import { revalidatePath } from "next/cache";
import { z } from "zod";
import {
  createLegacyTokenAs,
  createWebhookAs,
  deleteWebhookAs,
  dismissNoticeAs,
  enableWebhookAs,
  redeliverAs,
  revokeLegacyTokenAs,
  rotateWebhookAs,
  setCreditsLowThresholdAs,
  testWebhookAs,
} from "@/lib/dashboard/webhooks";
import { id, line } from "./fields";
import { actorAction } from "./safe-action";
import { type ActionState, type SecretState, toActionState } from "./state";

const refused = toActionState;
const endpointInput = z.object({ id: id("Unknown webhook endpoint.") });

const createWebhook = actorAction(
  {
    input: z.object({ url: line(2100, "The URL"), events: z.array(line(60, "An event type")).max(20) }),
    role: "admin",
    refused,
  },
  async ({ db, actor, input }): Promise<SecretState> => {
    const { secret } = await createWebhookAs(db, actor, input);
    revalidatePath("/dashboard/webhooks");
    return { ok: true, secret };
  },
);

/** Adds a webhook endpoint (owner or admin); its signing secret is shown once. */
export async function createWebhookAction(_prev: SecretState, form: FormData): Promise<SecretState> {
  return createWebhook({ url: String(form.get("url") ?? ""), events: form.getAll("events").map(String) });
}

const rotateWebhook = actorAction(
  { input: endpointInput, role: "admin", refused },
  async ({ db, actor, input }): Promise<SecretState> => {
    const { secret } = await rotateWebhookAs(db, actor, input.id);
    revalidatePath("/dashboard/webhooks");
    return { ok: true, secret };
  },
);

/** A new signing secret for the endpoint (the old one signs too for 24 h); shown once. */
export async function rotateWebhookAction(endpointId: string): Promise<SecretState> {
  return rotateWebhook({ id: endpointId });
}

const simple = (
  fn: (
    db: Parameters<typeof deleteWebhookAs>[0],
    actor: Parameters<typeof deleteWebhookAs>[1],
    id: string,
  ) => Promise<unknown>,
  role: "admin" | "member",
  what: z.ZodType<{ id: string }> = endpointInput,
) =>
  actorAction({ input: what, role, refused }, async ({ db, actor, input }): Promise<ActionState> => {
    await fn(db, actor, input.id);
    revalidatePath("/dashboard/webhooks");
    return { ok: true };
  });

const deleteWebhook = simple(deleteWebhookAs, "admin");
const enableWebhook = simple(enableWebhookAs, "admin");
const testWebhook = simple(testWebhookAs, "member");

export async function deleteWebhookAction(endpointId: string): Promise<ActionState> {
  return deleteWebhook({ id: endpointId });
}
export async function enableWebhookAction(endpointId: string): Promise<ActionState> {
  return enableWebhook({ id: endpointId });
}
/** Queues a webhook.test event for the endpoint; the job runner sends it within a second or two. */
export async function testWebhookAction(endpointId: string): Promise<ActionState> {
  return testWebhook({ id: endpointId });
}

const redeliverOne = actorAction(
  {
    input: z.object({ id: id("Unknown webhook endpoint."), deliveryId: id("Unknown delivery.") }),
    role: "admin",
    refused,
  },
  async ({ db, actor, input }): Promise<ActionState> => {
    await redeliverAs(db, actor, input.id, input.deliveryId);
    revalidatePath("/dashboard/webhooks");
    return { ok: true };
  },
);
export async function redeliverAction(endpointId: string, deliveryId: string): Promise<ActionState> {
  return redeliverOne({ id: endpointId, deliveryId });
}

const setThreshold = actorAction(
  { input: z.object({ threshold: z.coerce.number() }), role: "admin", refused },
  async ({ db, actor, input }): Promise<ActionState> => {
    await setCreditsLowThresholdAs(db, actor, input.threshold);
    revalidatePath("/dashboard/webhooks");
    return { ok: true };
  },
);
export async function setCreditsLowThresholdAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  return setThreshold({ threshold: form.get("threshold") ?? "" });
}

const dismiss = actorAction(
  { input: z.object({ id: id("Unknown notice.") }), role: "member", refused },
  async ({ db, actor, input }): Promise<ActionState> => {
    await dismissNoticeAs(db, actor, input.id);
    revalidatePath("/dashboard");
    return { ok: true };
  },
);
export async function dismissNoticeAction(noticeId: string): Promise<ActionState> {
  return dismiss({ id: noticeId });
}

const createToken = actorAction(
  { input: z.object({ name: line(200, "The name") }), role: "admin", refused },
  async ({ db, actor, input }): Promise<SecretState> => {
    const { token } = await createLegacyTokenAs(db, actor, input.name);
    revalidatePath("/dashboard/keys");
    return { ok: true, secret: token };
  },
);
/** A bearer token for the older interface (owner or admin); shown once, stored hashed. */
export async function createLegacyTokenAction(_prev: SecretState, form: FormData): Promise<SecretState> {
  return createToken({ name: String(form.get("name") ?? "") });
}

const revokeToken = simple(revokeLegacyTokenAs, "admin", z.object({ id: id("Unknown token.") }));
export async function revokeLegacyTokenAction(tokenId: string): Promise<ActionState> {
  const res = await revokeToken({ id: tokenId });
  revalidatePath("/dashboard/keys");
  return res;
}
