// postinstall: guards postgres.js (3.4.x) against writing to a connection's socket after it closed.
//
// The driver batches small writes behind setImmediate(nextWrite). When the connection closes first, closed()
// sets the socket to null and cancels the timer without forgetting it or the buffered bytes, so a later
// nextWrite dereferences the null socket from a timer: an uncaught TypeError that ends the process, during a
// database outage of all times (porsager/postgres issues 1066, 1154, 1208). The guard rejects the connection's
// pending queries with CONNECTION_CLOSED instead, which callers already handle, and teardown forgets the timer
// and the bytes meant for the dead socket. Idempotent; fails loudly if the driver's code is not the expected one.
import { readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

const require = createRequire(import.meta.url);
// The package exports no package.json: its main entry is cjs/src/index.js.
const root = path.resolve(path.dirname(require.resolve("postgres")), "../..");
const MARK = "/* guarded: no write after close */";

const edits = [
  [
    "  function nextWrite(fn) {\n    const x = socket.write(chunk, fn)",
    `  function nextWrite(fn) {\n    ${MARK}\n    if (!socket) {\n      clearImmediate(nextWriteTimer)\n      chunk = nextWriteTimer = null\n      error(Errors.connection('CONNECTION_CLOSED', options))\n      return false\n    }\n    const x = socket.write(chunk, fn)`,
  ],
  [
    "    clearImmediate(nextWriteTimer)\n    socket.removeListener('data', data)\n    socket.removeListener('connect', connected)\n    idleTimer.cancel()",
    "    clearImmediate(nextWriteTimer)\n    chunk = nextWriteTimer = null\n    socket.removeListener('data', data)\n    socket.removeListener('connect', connected)\n    idleTimer.cancel()",
  ],
];

for (const file of ["src/connection.js", "cjs/src/connection.js"]) {
  const target = path.join(root, file);
  let code = readFileSync(target, "utf8");
  if (code.includes(MARK)) continue;
  for (const [from, to] of edits) {
    if (!code.includes(from)) {
      console.error(
        `patch-postgres: ${file} is not the expected postgres.js code; review the guard for this version`,
      );
      process.exit(1);
    }
    code = code.replace(from, to);
  }
  writeFileSync(target, code);
}
