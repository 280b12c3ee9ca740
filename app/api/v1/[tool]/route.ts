import { catalogToolRoutes } from "@/lib/api/tool-route";

// POST /api/v1/<tool>: creates a job of the catalogue's tool of that name (its cost and input come from the
// catalogue); a name that is no tool is the JSON 404 of an unknown path
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = catalogToolRoutes();
