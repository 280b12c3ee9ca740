import { withPublicApi } from "@/lib/api/handler";
import { unknownPath } from "@/lib/api/unknown-path";

// ANY /api/v1/<unknown>: a JSON 404 in the envelope instead of Next's HTML page
const answer = withPublicApi(unknownPath);

export { answer as GET, answer as POST, answer as PUT, answer as PATCH, answer as DELETE, answer as OPTIONS };
