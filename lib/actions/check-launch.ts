"use server";
import { z } from "zod";
import { checkLaunch, type LaunchCheck } from "@/lib/dashboard/tools";
import { actorAction } from "./safe-action";

const checkLaunchInput = z.object({ tool: z.string().max(100), input: z.unknown() });

const check = actorAction(
  { input: checkLaunchInput, role: "member", refused: (): LaunchCheck => ({ ok: true }) },
  async ({ db, input }) => checkLaunch(db, input.tool, input.input),
);

/**
 * Whether the launcher's input can run on this server, by the rule a launch applies; asked as the form
 * changes so that Launch is disabled exactly when the launch would be refused. Changes nothing.
 */
export async function checkLaunchAction(tool: string, input: unknown): Promise<LaunchCheck> {
  return check({ tool, input });
}
