import { anyMethod, withPublicApi } from "@/lib/api/handler";
import { unknownPath } from "@/lib/api/unknown-path";

// ANY /api/v1 itself: no endpoint lives at the root; a JSON 404 that points at the document
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = anyMethod(withPublicApi(unknownPath));
