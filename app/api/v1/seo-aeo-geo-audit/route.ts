import { toolRoute } from "@/lib/jobs/tool-route";

// POST /api/v1/seo-aeo-geo-audit: start a seo-aeo-geo-audit job (75 credits); poll GET /api/v1/jobs/{jobId}
export const { GET, POST, PUT, PATCH, DELETE } = toolRoute("seo-aeo-geo-audit");
