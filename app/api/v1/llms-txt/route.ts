import { toolRoute } from "@/lib/jobs/tool-route";

// POST /api/v1/llms-txt: start a llms-txt job (20 credits); poll GET /api/v1/jobs/{jobId}
export const { GET, POST, PUT, PATCH, DELETE } = toolRoute("llms-txt");
