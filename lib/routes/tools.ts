import type { z } from "zod";
import { auditsJobCreated, jobCreated } from "@/lib/jobs/view";
import { pricingText, TOOL_NAMES, TOOLS, type ToolName } from "@/lib/tools/catalog";
import type { AnyTool } from "@/lib/tools/types";
import { defineRoute, type RouteContract } from "./contract";

export const pascal = (name: string) =>
  name
    .split(/[-_]/)
    .map((p) => p.charAt(0).toUpperCase() + p.slice(1))
    .join("");

export const toolAvailable = (name: ToolName) => !TOOLS[name].unavailable;

type JobCreatedData = z.infer<typeof jobCreated> | z.infer<typeof auditsJobCreated>;

/** The contract of a tool's endpoint, POST /<tool>: everything in it comes from the tool's catalogue entry. */
export type ToolContract = RouteContract<undefined, AnyTool["input"], z.ZodType<JobCreatedData>, never>;

const contracts = new Map<string, ToolContract>();

/** POST /<tool> of a catalogue tool (kept per tool: the dynamic route implements it once per name). */
export function toolContract(tool: AnyTool): ToolContract {
  const known = contracts.get(tool.name);
  if (known?.body?.schema === tool.input) return known;
  const name = tool.name;
  const cost = pricingText(tool);
  const resultNote = !tool.unavailable
    ? `Once the job is completed, \`data.result\` of GET /jobs/{jobId} is a \`${pascal(name)}Result\`.`
    : "**Not available on this server yet**: the job is created and charged, then fails with `TOOL_UNAVAILABLE` and its credits are refunded automatically. The input schema and cost are final, so clients can integrate now.";
  const contract = defineRoute({
    method: "post",
    path: `/${name}`,
    operationId: `create${pascal(name)}Job`,
    tag: "Tools",
    summary: tool.summary,
    description: `${tool.summary}\n\nCosts ${cost}, charged when the job is created and refunded if it fails. Answers 202 with the job in state \`pending\` and a \`Location\` header; poll GET /jobs/{jobId} every few seconds. ${resultNote}\n\nSend an \`Idempotency-Key\` header to make retries safe: a replay with the same body returns the original job without a second charge.`,
    body: { name: `${pascal(name)}Input`, schema: tool.input as AnyTool["input"], example: tool.example },
    idempotencyKey: true,
    success: {
      status: 202,
      description: "The job was created in state pending and its cost charged.",
      data:
        tool.creationShape === "with-charge"
          ? { name: "AuditsJobCreated", schema: auditsJobCreated as z.ZodType<JobCreatedData> }
          : { name: "JobCreated", schema: jobCreated as z.ZodType<JobCreatedData> },
      location: true,
    },
    errors: ["VALIDATION_ERROR", "INSUFFICIENT_CREDITS"],
    cost,
    tool: name as ToolName,
  }) as ToolContract;
  contracts.set(name, contract);
  return contract;
}

/** Every catalogue tool's endpoint, in catalogue order. */
export const toolContracts = (): ToolContract[] => TOOL_NAMES.map((name) => toolContract(TOOLS[name]));
