import { toolRoute } from "@/lib/jobs/tool-route";

// POST /api/v1/audits: start a audits job (50 credits); poll GET /api/v1/jobs/{jobId}
export const { GET, POST, PUT, PATCH, DELETE } = toolRoute("audits");
