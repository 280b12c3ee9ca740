import { getDbHandle } from "@/lib/db/client";

/** Server start: migrations first (the app refuses to serve a schema it does not know). */
export async function startServerRuntime(): Promise<void> {
  await getDbHandle();
}
