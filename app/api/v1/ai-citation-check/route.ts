import { toolRoute } from "@/lib/jobs/tool-route";

// POST /api/v1/ai-citation-check: start a ai-citation-check job (100 per engine credits); poll GET /api/v1/jobs/{jobId}
export const { GET, POST, PUT, PATCH, DELETE } = toolRoute("ai-citation-check");
