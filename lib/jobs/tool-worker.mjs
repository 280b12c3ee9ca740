// The entry of a tool worker thread. It runs outside the bundle the server was built into, so it
// compiles the TypeScript sources itself (tsx, with the tsconfig's `@/` alias), then starts the loop.
import path from "node:path";
import { register } from "tsx/esm/api";

register({ tsconfig: path.join(process.cwd(), "tsconfig.json") });
await import("./tool-worker-loop.ts");
