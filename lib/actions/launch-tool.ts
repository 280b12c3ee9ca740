"use server";
import { revalidatePath } from "next/cache";
import { z } from "zod";
import { type LaunchResult, launchTool } from "@/lib/dashboard/tools";
import { line } from "./fields";
import { actorAction } from "./safe-action";

// The tool's own schema checks the input inside launchTool, exactly as POST /api/v1/<tool> does.
const launchToolInput = z.object({ tool: line(80, "The tool"), input: z.unknown() });

const launch = actorAction(
  {
    input: launchToolInput,
    role: "member",
    refused: (err): LaunchResult => ({ ok: false, message: err.message, issues: [] }),
  },
  async ({ db, actor, input }) => {
    const result = await launchTool(db, actor, input.tool, input.input);
    if (result.ok) revalidatePath("/dashboard", "layout");
    return result;
  },
);

/** Starts a tool job for the active account (any member). */
export async function launchToolAction(tool: string, input: unknown): Promise<LaunchResult> {
  return launch({ tool, input });
}
