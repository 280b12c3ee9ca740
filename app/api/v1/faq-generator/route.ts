import { toolRoute } from "@/lib/jobs/tool-route";

// POST /api/v1/faq-generator: start a faq-generator job (20 credits); poll GET /api/v1/jobs/{jobId}
export const { GET, POST, PUT, PATCH, DELETE } = toolRoute("faq-generator");
