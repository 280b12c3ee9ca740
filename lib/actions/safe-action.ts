// The action client the app uses: request headers from Next, the actor from the dashboard session.
import { headers } from "next/headers";
import { requireActor } from "@/lib/auth/session";
import { createActionClient } from "./client";
import { configuredOrigins } from "./origin";

export const { actorAction, publicAction } = createActionClient({
  requestHeaders: () => headers(),
  requireActor,
  trustedOrigins: () => configuredOrigins(),
});
