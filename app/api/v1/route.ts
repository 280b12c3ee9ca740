import { withPublicApi } from "@/lib/api/handler";
import { unknownPath } from "@/lib/api/unknown-path";

// ANY /api/v1 itself: no endpoint lives at the root; a JSON 404 that points at the document
const answer = withPublicApi(unknownPath);

export { answer as GET, answer as POST, answer as PUT, answer as PATCH, answer as DELETE, answer as OPTIONS };
