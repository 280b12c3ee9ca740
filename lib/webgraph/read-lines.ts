import { createReadStream } from "node:fs";
import { open } from "node:fs/promises";
import { createInterface } from "node:readline";
import type { Readable } from "node:stream";
import { createGunzip } from "node:zlib";

/** Common Crawl publishes its graph files gzipped; tests and operators may also hand over plain text. */
async function isGzip(file: string): Promise<boolean> {
  const handle = await open(file, "r");
  try {
    const head = Buffer.alloc(2);
    const { bytesRead } = await handle.read(head, 0, 2, 0);
    return bytesRead === 2 && head[0] === 0x1f && head[1] === 0x8b;
  } finally {
    await handle.close();
  }
}

/** The file's lines, decompressed on the fly when gzipped; memory stays flat whatever the size. */
export async function* readLines(file: string): AsyncGenerator<string> {
  const raw = createReadStream(file, { highWaterMark: 1 << 20 });
  const input: Readable = (await isGzip(file)) ? raw.pipe(createGunzip({ chunkSize: 1 << 20 })) : raw;
  raw.on("error", (err) => input.destroy(err));
  const lines = createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY });
  try {
    for await (const line of lines) yield line;
  } finally {
    lines.close();
    raw.destroy();
  }
}
