// Runs once when a server process starts: open and migrate the database before the first request.
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { startServerRuntime } = await import("./lib/server-runtime");
  await startServerRuntime();
}
