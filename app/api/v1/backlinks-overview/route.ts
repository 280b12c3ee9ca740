import { toolRoute } from "@/lib/jobs/tool-route";

// POST /api/v1/backlinks-overview: start a backlinks-overview job (15 credits); poll GET /api/v1/jobs/{jobId}
export const { GET, POST, PUT, PATCH, DELETE } = toolRoute("backlinks-overview");
