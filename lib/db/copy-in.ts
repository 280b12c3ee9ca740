import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";

/** What `copy … from stdin` needs of a postgres.js client: a query that turns into a writable stream. */
export interface CopyClient {
  unsafe(text: string): CopyQuery;
}
export interface CopyQuery {
  writable(): Promise<NodeJS.WritableStream>;
  reject: (err: unknown) => void;
}

/**
 * Runs `statement` (a `copy … from stdin`) on a postgres.js client with `chunks` as its data, and settles with the
 * server's answer. postgres.js 3.4.9 never settles a COPY that the server fails after the client has sent all of
 * its data (porsager/postgres#1173): its writable neither finishes nor errors, so the transaction around it never
 * rolls back and its connection stays taken, idle in an aborted transaction. The server's error still reaches the
 * query's `reject` (a no-op by then: the query resolved with the stream), which is where it is caught.
 */
export async function copyIn(
  client: CopyClient,
  statement: string,
  chunks: Iterable<string | Uint8Array> | AsyncIterable<string | Uint8Array>,
): Promise<void> {
  const query = client.unsafe(statement);
  const failed = new Promise<never>((_, reject) => {
    const settle = query.reject;
    query.reject = (err) => {
      reject(err);
      settle(err);
    };
  });
  failed.catch(() => {}); // raced below; never settles when the COPY succeeds
  const stream = await query.writable();
  await Promise.race([pipeline(Readable.from(chunks), stream), failed]);
}
