import { AppError } from "@/lib/errors";

/** The answer for a path under /api/v1 where no endpoint lives. */
export async function unknownPath({ url }: { url: URL }): Promise<never> {
  throw new AppError("NOT_FOUND", `No endpoint at ${url.pathname}. See /api/v1/openapi.json.`);
}
