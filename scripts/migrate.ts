// npm run db:migrate: apply drizzle/ migrations to DATABASE_URL, or to the embedded PGlite folder.
import { migrateDatabase, openDatabase } from "@/lib/db/client";

const handle = await openDatabase({ command: "npm run db:migrate" });
await migrateDatabase(handle);
await handle.close();
console.log(JSON.stringify({ migrated: true, driver: handle.driver }));
