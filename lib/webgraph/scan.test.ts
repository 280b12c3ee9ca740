import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { afterAll, describe, expect, test } from "vitest";
import { WebgraphFormatError } from "./parse";
import { type GraphFile, InDegreeCounter, scanGraphFile } from "./scan";

const dir = mkdtempSync(path.join(tmpdir(), "webgraph-scan-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let n = 0;
function file(text: string, gzip = false): string {
  const f = path.join(dir, `f${n++}.txt${gzip ? ".gz" : ""}`);
  writeFileSync(f, gzip ? gzipSync(text) : text);
  return f;
}

async function scan(f: string, kind: GraphFile, skip = 0, batchSize = 1000) {
  const batches = [];
  for await (const b of scanGraphFile(f, kind, { skip, batchSize })) {
    batches.push({ ...b, text: Buffer.concat(b.chunks).toString() });
  }
  return batches;
}

describe("scanGraphFile", () => {
  test("edges pass through in batches across read chunks, comments and a missing last newline", async () => {
    // Over 1 MiB, so lines straddle the reader's chunks.
    const lines = Array.from({ length: 200_000 }, (_, i) => `${i}\t${(i * 7919) % 1_000_003}`);
    const text = `${lines.slice(0, 5).join("\n")}\n# a comment\n\n${lines.slice(5).join("\n")}`;
    for (const gzip of [false, true]) {
      const batches = await scan(file(text, gzip), "edges", 0, 64_000);
      expect(batches.map((b) => b.rows)).toEqual([64_000, 64_000, 64_000, 8_000]);
      expect(batches.map((b) => b.text).join("")).toBe(`${lines.join("\n")}\n`);
      expect(batches.at(-1)).toMatchObject({ lineNo: 200_002, linesRead: 200_002 });
      expect(batches[0]!.lineNo).toBe(64_002);
    }
  });

  test("a resumed scan skips the committed lines", async () => {
    const batches = await scan(file("0\t1\n1\t2\n2\t3\n3\t4\n"), "edges", 3, 1);
    expect(batches.map((b) => [b.text, b.lineNo, b.linesRead])).toEqual([
      ["3\t4\n", 4, 1],
      ["", 4, 1],
    ]);
  });

  test("vertices lose the host count column and are lower-cased", async () => {
    const [b] = await scan(file("0\tcom.Example\t3\n1\torg.wiki_pedia.en\n"), "vertices");
    expect(b!.text).toBe("0\tcom.example\n1\torg.wiki_pedia.en\n");
  });

  test("ranks follow their header's column order; quotes are stripped and a missing n_hosts is null", async () => {
    const header = "#host_rev\t#pr_val\t#pr_pos\t#harmonicc_val\t#harmonicc_pos";
    const [b] = await scan(file(`${header}\n'com.Example'\t3.79E-4\t2\t2.99E7\t1\n`), "ranks");
    expect(b!.text).toBe("1\t2.99E7\t2\t3.79E-4\tcom.example\t\\N\n");
    expect(b!.linesRead).toBe(1);
  });

  test("counts in-degrees of the edges read, self-links left out, growing past its first size", async () => {
    const counter = new InDegreeCounter();
    const text = "0\t1\n0\t200000\n1\t1\n2\t1\n# comment\n3\t200000\n4\t0\n";
    for await (const _ of scanGraphFile(file(text), "edges", { skip: 0, batchSize: 2, inDegrees: counter })) {
    }
    expect(counter.counts![1]).toBe(2);
    expect(counter.counts![200_000]).toBe(2);
    expect(counter.counts![0]).toBe(1);
    const nonZero = (c: InDegreeCounter) => [...c.counts!.entries()].filter(([, n]) => n > 0);
    expect(nonZero(counter)).toEqual([
      [0, 1],
      [1, 2],
      [200_000, 2],
    ]);
    // Skipped lines (committed by an earlier run) are not counted.
    const resumed = new InDegreeCounter();
    for await (const _ of scanGraphFile(file(text), "edges", { skip: 1, batchSize: 2, inDegrees: resumed })) {
    }
    expect(nonZero(resumed)).toEqual([
      [0, 1],
      [1, 1],
      [200_000, 2],
    ]);

    // Vertex lines read after the edges carry their in-degree (0 for ids past the last one linked to).
    const vertices = "0\tcom.a\n1\tcom.b\t7\n2\tcom.c\n200000\tcom.d\n300000\tcom.e\n";
    let text2 = "";
    for await (const b of scanGraphFile(file(vertices), "vertices", {
      skip: 0,
      batchSize: 2,
      inDegrees: counter,
    }))
      text2 += Buffer.concat(b.chunks).toString();
    expect(text2).toBe("0\tcom.a\t1\n1\tcom.b\t2\n2\tcom.c\t0\n200000\tcom.d\t2\n300000\tcom.e\t0\n");
  });

  test("a vertex in-degree of several digits is written whole", async () => {
    const counter = new InDegreeCounter();
    for (let i = 0; i < 12_345; i++) counter.add(i + 10, 3);
    let text = "";
    for await (const b of scanGraphFile(file("3\tcom.a\n"), "vertices", {
      skip: 0,
      batchSize: 2,
      inDegrees: counter,
    }))
      text += Buffer.concat(b.chunks).toString();
    expect(text).toBe("3\tcom.a\t12345\n");
  });

  test("gives up counting in-degrees past its limit (the database counts then)", async () => {
    const counter = new InDegreeCounter(1000);
    for await (const _ of scanGraphFile(file("0\t5\n1\t1001\n2\t5\n"), "edges", {
      skip: 0,
      batchSize: 10,
      inDegrees: counter,
    })) {
    }
    expect(counter.counts).toBeNull();
  });

  test.each([
    ["edges", "0\t1\n1\tnot-a-number\n", 2, "edge ids are not whole numbers"],
    ["edges", "0 1\n", 1, "expected from_id<TAB>to_id"],
    ["edges", "0\t1\t2\n", 1, "edge ids are not whole numbers"],
    ["edges", "0\t1234567890123456\n", 1, "edge ids are not whole numbers"],
    ["vertices", "x\tcom.example\n", 1, "vertex id is not a whole number"],
    ["vertices", "1\tcom example\n", 1, "not a reversed host name"],
    ["vertices", "1\tcom..example\n", 1, "not a reversed host name"],
    ["vertices", "1\tcom.ex\\ample\n", 1, "not a reversed host name"],
    [
      "ranks",
      "#harmonicc_pos\t#harmonicc_val\t#pr_pos\t#pr_val\t#host_rev\n0\t1\t1\t1\tcom.a\n",
      2,
      "positions",
    ],
    ["ranks", "1\tNaN\t1\t1\tcom.a\t1\n", 1, "rank values are not numbers"],
    ["ranks", "1\t1.5x\t1\t1\tcom.a\t1\n", 1, "rank values are not numbers"],
    ["ranks", "1\t1\t1\t1\tcom.a\tmany\n", 1, "n_hosts is not a whole number"],
    ["ranks", "#pos\t#val\n", 1, "lacks"],
  ] as const)("%s: %j is refused at line %i", async (kind, text, line, message) => {
    const f = file(text);
    const run = scan(f, kind);
    await expect(run).rejects.toBeInstanceOf(WebgraphFormatError);
    await expect(run).rejects.toThrow(`${f}:${line}: `);
    await expect(run).rejects.toThrow(message);
  });
});
