import { toolRoute } from "@/lib/jobs/tool-route";

// POST /api/v1/core-web-vitals: start a core-web-vitals job (25 credits); poll GET /api/v1/jobs/{jobId}
export const { GET, POST, PUT, PATCH, DELETE } = toolRoute("core-web-vitals");
