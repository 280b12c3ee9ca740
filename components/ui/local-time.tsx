"use client";

import { useEffect, useState } from "react";
import { formatDateTime, formatLocalDateTime } from "@/lib/dashboard/format";

/**
 * A timestamp in the reader's own time zone. The server renders UTC (it does not know the reader's zone);
 * the browser replaces it with local time as soon as the page is live.
 */
export function LocalTime({ value }: { value: string | Date | null | undefined }) {
  const iso = value ? new Date(value).toISOString() : null;
  const [local, setLocal] = useState<string | null>(null);
  useEffect(() => {
    setLocal(iso ? formatLocalDateTime(iso) : null);
  }, [iso]);
  if (!iso) return <>—</>;
  return (
    <time dateTime={iso} suppressHydrationWarning>
      {local ?? formatDateTime(iso)}
    </time>
  );
}
