import { toolRoute } from "@/lib/jobs/tool-route";

// POST /api/v1/brand-visibility: start a brand-visibility job (100 credits); poll GET /api/v1/jobs/{jobId}
export const { GET, POST, PUT, PATCH, DELETE } = toolRoute("brand-visibility");
