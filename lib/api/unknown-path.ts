import { AppError, validationError } from "@/lib/errors";

/** The answer for a path under /api/v1 where no endpoint lives. */
export async function unknownPath({ url }: { url: URL }): Promise<never> {
  throw new AppError("NOT_FOUND", `No endpoint at ${url.pathname}. See /api/v1/openapi.json.`);
}

/** The answer for a path of the older interface (under /api, outside /api/v1) where no endpoint lives. */
export async function unknownLegacyPath({ url }: { url: URL }): Promise<never> {
  throw new AppError(
    "NOT_FOUND",
    `No endpoint at ${url.pathname}. The older interface's operations are listed in /api/v1/openapi.json (tag "Legacy interface").`,
  );
}

/** A path whose percent-encoding does not decode (`%ZZ`, a cut UTF-8 sequence) names nothing: 400. */
export async function malformedPath(): Promise<never> {
  throw validationError(
    "Invalid request: the path holds a malformed percent-encoding (a % not followed by two hex digits, or escapes that are not UTF-8).",
    [{ field: "path", message: "Malformed percent-encoding." }],
    { reason: "malformed_path" },
  );
}
