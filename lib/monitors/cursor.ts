import { inPostgresYears, isCalendarDay } from "@/lib/calendar";
import { AppError } from "@/lib/errors";

// A page cursor is the last item's (created_at to the microsecond, id): stable under inserts, no offset scans.
export function encodeCursor(createdAt: string, id: string): string {
  return Buffer.from(`${createdAt}|${id}`).toString("base64url");
}

const ISO = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])T([01]\d|2[0-3]):[0-5]\d:[0-5]\d(\.\d{1,6})?Z$/;

export function decodeCursor(cursor: string): { createdAt: string; id: string } {
  const [iso, id] = Buffer.from(cursor, "base64url").toString("utf8").split("|");
  const valid = iso !== undefined && ISO.test(iso) && isCalendarDay(iso) && inPostgresYears(new Date(iso));
  if (!valid || !id || !/^[0-9a-f-]{36}$/.test(id)) {
    throw new AppError("VALIDATION_ERROR", "cursor is not a cursor this API returned.", {
      field: "cursor",
      issues: [{ field: "cursor", message: "Not a cursor this API returned." }],
    });
  }
  return { createdAt: iso, id };
}
