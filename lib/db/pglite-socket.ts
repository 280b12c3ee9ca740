import { unlinkSync } from "node:fs";
import { createServer, type Server, type Socket } from "node:net";
import type { PGlite } from "@electric-sql/pglite";

// Serves a PGlite instance on a unix socket in the Postgres wire protocol, so that a second process
// (the admin CLI, `npm run worker`) works on the server's database instead of opening the folder
// again. PGlite has a single session: a client's statements run one message at a time, and from the
// message that opens a transaction (or an unsynced extended-protocol batch) until the ReadyForQuery
// that reports "idle", the client holds PGlite's transaction lock, so neither the server's own
// queries nor another client can run inside its transaction.

const SSL_REQUEST = 80877103;
const GSS_REQUEST = 80877104;
const CANCEL_REQUEST = 80877102;
const PROTOCOL_3 = 196608;

export interface SocketServerOptions {
  /** A client that holds an open transaction and sends nothing for this long is cut off and rolled back. */
  idleInTransactionMs?: number;
  /** At most this many clients at once; more are refused with a Postgres error. */
  maxClients?: number;
}

export interface PgliteSocketServer {
  readonly path: string;
  close(): Promise<void>;
}

/** The status byte of the last ReadyForQuery in a server response, if any. */
function lastReadyStatus(out: Uint8Array): string | null {
  let status: string | null = null;
  let i = 0;
  const view = Buffer.from(out.buffer, out.byteOffset, out.byteLength);
  while (i + 5 <= view.length) {
    const type = view[i];
    const len = view.readInt32BE(i + 1);
    if (type === 0x5a && len === 5 && i + 5 < view.length) status = String.fromCharCode(view[i + 5]!);
    i += 1 + len;
  }
  return status;
}

function errorResponse(code: string, message: string): Buffer {
  const body = Buffer.from(`SFATAL\0VFATAL\0C${code}\0M${message}\0\0`);
  const head = Buffer.alloc(5);
  head.write("E");
  head.writeInt32BE(body.length + 4, 1);
  return Buffer.concat([head, body]);
}

function simpleQuery(sql: string): Uint8Array {
  const text = Buffer.from(`${sql}\0`);
  const msg = Buffer.alloc(5 + text.length);
  msg.write("Q");
  msg.writeInt32BE(4 + text.length, 1);
  text.copy(msg, 5);
  return msg;
}

const SYNC = Uint8Array.from([0x53, 0, 0, 0, 4]);

class ClientConnection {
  private buffer: Buffer = Buffer.alloc(0);
  private started = false;
  private readonly queue: Uint8Array[] = [];
  private pumping = false;
  private release: (() => void) | null = null;
  private idleTimer: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(
    private readonly pg: PGlite,
    private readonly socket: Socket,
    private readonly idleInTransactionMs: number,
    private readonly onClosed: () => void,
  ) {
    socket.on("data", (chunk) => this.receive(chunk));
    socket.on("error", () => this.shutdown());
    socket.on("close", () => this.shutdown());
  }

  private receive(chunk: Buffer): void {
    this.buffer = this.buffer.length ? Buffer.concat([this.buffer, chunk]) : chunk;
    for (;;) {
      if (!this.started) {
        if (this.buffer.length < 8) return;
        const len = this.buffer.readInt32BE(0);
        if (len < 8 || len > 10_000) return void this.socket.destroy();
        if (this.buffer.length < len) return;
        const code = this.buffer.readInt32BE(4);
        const msg = this.buffer.subarray(0, len);
        this.buffer = this.buffer.subarray(len);
        if (code === SSL_REQUEST || code === GSS_REQUEST) {
          this.socket.write("N");
          continue;
        }
        // PGlite has no backend to signal; a cancel request is dropped.
        if (code === CANCEL_REQUEST) return void this.socket.end();
        if (code !== PROTOCOL_3) {
          this.socket.end(errorResponse("08P01", "unsupported frontend protocol"));
          return;
        }
        this.started = true;
        this.enqueue(Uint8Array.from(msg));
        continue;
      }
      if (this.buffer.length < 5) return;
      const len = this.buffer.readInt32BE(1);
      if (len < 4) return void this.socket.destroy();
      if (this.buffer.length < 1 + len) return;
      const type = this.buffer[0];
      const msg = Uint8Array.from(this.buffer.subarray(0, 1 + len));
      this.buffer = this.buffer.subarray(1 + len);
      // Terminate ends this client only: PGlite's session belongs to the server.
      if (type === 0x58) return void this.socket.end();
      this.enqueue(msg);
    }
  }

  private enqueue(msg: Uint8Array): void {
    clearTimeout(this.idleTimer);
    this.queue.push(msg);
    void this.pump();
  }

  private hold(): Promise<void> {
    return new Promise<void>((acquired) => {
      void this.pg._runExclusiveTransaction(
        () =>
          new Promise<void>((done) => {
            this.release = () => {
              this.release = null;
              done();
            };
            acquired();
          }),
      );
    });
  }

  private async pump(): Promise<void> {
    if (this.pumping) return;
    this.pumping = true;
    try {
      while (this.queue.length && !this.closed) {
        const msg = this.queue.shift()!;
        if (!this.release) await this.hold();
        if (this.closed) break;
        const out = await this.pg.runExclusive(() => this.pg.execProtocolRaw(msg));
        if (out.length && this.socket.writable) this.socket.write(out);
        if (lastReadyStatus(out) === "I") this.release?.();
      }
    } catch {
      this.socket.destroy();
    } finally {
      this.pumping = false;
    }
    if (this.closed) await this.abandon();
    else if (this.release) {
      this.idleTimer = setTimeout(() => {
        this.socket.end(errorResponse("25P03", "terminating connection due to idle-in-transaction timeout"));
        this.socket.destroy();
      }, this.idleInTransactionMs);
    }
  }

  private shutdown(): void {
    if (this.closed) return;
    this.closed = true;
    clearTimeout(this.idleTimer);
    this.queue.length = 0;
    this.onClosed();
    if (!this.pumping) void this.abandon();
  }

  /** A client gone mid-transaction: end its extended-protocol batch, roll back, give the lock back. */
  private async abandon(): Promise<void> {
    const release = this.release;
    if (!release) return;
    try {
      await this.pg.runExclusive(async () => {
        await this.pg.execProtocolRaw(SYNC);
        if (this.pg.isInTransaction()) await this.pg.execProtocolRaw(simpleQuery("ROLLBACK"));
      });
    } catch {
      // The instance is closing.
    } finally {
      release();
    }
  }

  destroy(): void {
    this.socket.destroy();
  }
}

/** Listens on socketPath (a stale socket file is replaced) and serves pg until close(). */
export async function servePgliteSocket(
  pg: PGlite,
  socketPath: string,
  opts: SocketServerOptions = {},
): Promise<PgliteSocketServer> {
  const clients = new Set<ClientConnection>();
  const maxClients = opts.maxClients ?? 32;
  const idle = opts.idleInTransactionMs ?? 10_000;
  const server: Server = createServer((socket) => {
    if (clients.size >= maxClients) {
      socket.end(errorResponse("53300", "sorry, too many clients already"));
      return;
    }
    const client: ClientConnection = new ClientConnection(pg, socket, idle, () => clients.delete(client));
    clients.add(client);
  });
  try {
    unlinkSync(socketPath);
  } catch {}
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(socketPath, () => {
      server.off("error", reject);
      resolve();
    });
  });
  return {
    path: socketPath,
    close: async () => {
      const closing = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const client of clients) client.destroy();
      await closing;
      try {
        unlinkSync(socketPath);
      } catch {}
    },
  };
}
