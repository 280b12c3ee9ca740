import { anyMethod, withPublicApi } from "@/lib/api/handler";
import { unknownLegacyPath } from "@/lib/api/unknown-path";

// ANY /api/<unknown> outside /api/v1 (the older interface): a JSON 404 in the envelope, not Next's HTML page
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = anyMethod(withPublicApi(unknownLegacyPath));
