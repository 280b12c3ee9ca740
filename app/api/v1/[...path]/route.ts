import { withEnvelope } from "@/lib/api/handler";
import { AppError } from "@/lib/errors";

// ANY /api/v1/<unknown>: a JSON 404 in the envelope instead of Next's HTML page
const unknownPath = withEnvelope(async ({ url }) => {
  throw new AppError("NOT_FOUND", `No endpoint at ${url.pathname}. See /api/v1/openapi.json.`);
});

export {
  unknownPath as GET,
  unknownPath as POST,
  unknownPath as PUT,
  unknownPath as PATCH,
  unknownPath as DELETE,
};
