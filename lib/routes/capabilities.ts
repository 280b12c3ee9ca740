import { capabilitiesResult } from "@/lib/capabilities/capabilities";
import { UNAVAILABLE_REASON_TEXT, UNAVAILABLE_REASONS } from "@/lib/errors/unavailable";
import { defineRoute } from "./contract";

const REASONS = UNAVAILABLE_REASONS.map((r) => `\`${r}\` (${UNAVAILABLE_REASON_TEXT[r]})`).join(", ");

/** GET /capabilities: what this server and account can run, each with a reason when it cannot (free). */
export const getCapabilitiesRoute = defineRoute({
  method: "get",
  path: "/capabilities",
  operationId: "getCapabilities",
  tag: "Meta",
  summary: "What this server can run, and why not when it cannot",
  description: `Every tool and further capability (each AI engine, the connections to your own search and analytics data, Core Web Vitals field data, buying credits, email) with \`available\` and, when not, \`reason\` from a closed list: ${REASONS}. A tool is available when some input of it can run here; \`options\` lists its choices (an engine, seed keywords) when some of them cannot. A tool request that cannot run is refused with 400 \`VALIDATION_ERROR\` before any charge, with the same reason in \`details.reason\`. Free.`,
  success: {
    status: 200,
    description: "The capabilities.",
    data: { name: "Capabilities", schema: capabilitiesResult },
  },
  errors: [],
});
