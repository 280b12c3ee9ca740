import { toolRoute } from "@/lib/jobs/tool-route";

// POST /api/v1/keyword-research: start a keyword-research job (50 credits); poll GET /api/v1/jobs/{jobId}
export const { GET, POST, PUT, PATCH, DELETE } = toolRoute("keyword-research");
