// Holds an embedded database folder open the way a short command does (no socket), until stdin closes.
import { openDatabase } from "@/lib/db/client";

const handle = await openDatabase({ url: "", command: "folder holder" });
console.log(`HOLDING ${handle.location}`);
process.stdin.resume();
process.stdin.on("end", async () => {
  await handle.close();
  process.exit(0);
});
