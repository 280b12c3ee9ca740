import { anyMethod, withPublicApi } from "@/lib/api/handler";
import { unknownPath } from "@/lib/api/unknown-path";

// ANY /api/v1/<unknown>: a JSON 404 in the envelope instead of Next's HTML page
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = anyMethod(withPublicApi(unknownPath));
