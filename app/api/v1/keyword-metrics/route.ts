import { toolRoute } from "@/lib/api/tool-route";
import { TOOLS } from "@/lib/tools/catalog";

// POST /api/v1/keyword-metrics: creates a job of the tool (its cost and input come from the catalogue)
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = toolRoute(TOOLS["keyword-metrics"]);
