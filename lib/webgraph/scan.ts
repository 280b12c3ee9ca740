import { createReadStream } from "node:fs";
import { open } from "node:fs/promises";
import type { Readable } from "node:stream";
import { createGunzip } from "node:zlib";
import { DEFAULT_RANK_COLUMNS, parseRankHeader, type RankColumns, WebgraphFormatError } from "./parse";

/**
 * A byte scanner for Common Crawl's graph files: it checks each line byte by byte (the same rules as the
 * line parsers in ./parse) and hands out batches already in Postgres' COPY text format, so a line is never
 * turned into a JS string or object. Edge lines are already in that format and pass through as slices of the
 * decompressed input; vertex and rank lines are rewritten (columns picked, host names lower-cased).
 *
 * Output columns, one row per line, tab-separated, `\N` for null:
 *   vertices: vertex_id, rev_host
 *   edges:    from_id, to_id
 *   ranks:    harmonic_pos, harmonic_val, pagerank_pos, pagerank_val, rev_host, host_count
 */
export type GraphFile = "vertices" | "edges" | "ranks";

export interface ScanBatch {
  /** COPY text of the batch's rows; each chunk ends with a newline. */
  chunks: Buffer[];
  rows: number;
  /** Lines of the file consumed once this batch is in: what a resumed run skips. */
  lineNo: number;
  /** Lines read in this run (skipped ones and the ranks header not counted), up to this batch's end. */
  linesRead: number;
}

const TAB = 9;
const NL = 10;
const HASH = 35;
const DOT = 46;
const ZERO = 48;
const NINE = 57;
const MAX_ID_DIGITS = 15;
const MAX_HOST = 253;
const NULL_FIELD = Buffer.from("\\N");

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

/** The file's bytes, decompressed on the fly (zlib works off the main thread) when gzipped. */
async function openBytes(file: string): Promise<{ input: Readable; close: () => void }> {
  const raw = createReadStream(file, { highWaterMark: 1 << 20 });
  const input: Readable = (await isGzip(file)) ? raw.pipe(createGunzip({ chunkSize: 1 << 20 })) : raw;
  raw.on("error", (err) => input.destroy(err));
  return {
    input,
    close: () => {
      raw.destroy();
      input.destroy();
    },
  };
}

/**
 * The output of rewritten lines: a run of fixed-size buffers. A full buffer is set aside as it is, never copied
 * into a larger one, so a batch is a list of chunks (a line may straddle two; COPY reads them as one stream).
 */
class Sink {
  static readonly SIZE = 1 << 20;
  buf = Buffer.allocUnsafe(Sink.SIZE);
  len = 0;
  full: Buffer[] = [];
  ensure(extra: number) {
    if (this.len + extra <= this.buf.length) return;
    if (this.len > 0) this.full.push(this.buf.subarray(0, this.len));
    this.buf = Buffer.allocUnsafe(Math.max(Sink.SIZE, extra));
    this.len = 0;
  }
  take(): Buffer[] {
    if (this.len > 0) this.full.push(this.buf.subarray(0, this.len));
    const out = this.full;
    this.full = [];
    this.buf = this.buf.subarray(this.len);
    if (this.buf.length < 4096) this.buf = Buffer.allocUnsafe(Sink.SIZE);
    this.len = 0;
    return out;
  }
}

/**
 * In-degrees counted while the edge file streams by (self-links left out), indexed by vertex id: Common Crawl's
 * ids run from 0 to the vertex count. Ids beyond `limit` (memory) give up counting; the database counts then.
 */
export class InDegreeCounter {
  counts: Uint32Array | null = new Uint32Array(1 << 16);
  constructor(readonly limit = MAX_COUNTED_ID) {}
  add(from: number, to: number) {
    if (from === to) return;
    let c = this.counts;
    if (c === null) return;
    if (to >= c.length || to > this.limit) {
      if (to > this.limit) {
        this.counts = null;
        return;
      }
      const next = new Uint32Array(Math.min(this.limit + 1, Math.max(c.length * 2, to + 1)));
      next.set(c);
      this.counts = c = next;
    }
    c[to]!++;
  }
}

/** 512 Mi ids: 2 GiB of counters at most. */
const MAX_COUNTED_ID = (1 << 29) - 1;

/** True when buf[start, end) is 1–15 ASCII digits. */
function isId(buf: Buffer, start: number, end: number): boolean {
  if (end <= start || end - start > MAX_ID_DIGITS) return false;
  for (let i = start; i < end; i++) {
    const c = buf[i]!;
    if (c < ZERO || c > NINE) return false;
  }
  return true;
}

/** An id of at least 1 (rank positions). */
function isPosition(buf: Buffer, start: number, end: number): boolean {
  if (!isId(buf, start, end)) return false;
  for (let i = start; i < end; i++) if (buf[i] !== ZERO) return true;
  return false;
}

/** A finite decimal number as Java prints it: `-1.5`, `3.4626736E7`, `3.79E-4`. */
function isNumber(buf: Buffer, start: number, end: number): boolean {
  let i = start;
  if (i < end && (buf[i] === 43 || buf[i] === 45)) i++;
  let digits = 0;
  while (i < end && buf[i]! >= ZERO && buf[i]! <= NINE) {
    i++;
    digits++;
  }
  if (i < end && buf[i] === DOT) {
    i++;
    while (i < end && buf[i]! >= ZERO && buf[i]! <= NINE) {
      i++;
      digits++;
    }
  }
  if (digits === 0) return false;
  if (i < end && (buf[i] === 69 || buf[i] === 101)) {
    i++;
    if (i < end && (buf[i] === 43 || buf[i] === 45)) i++;
    const from = i;
    while (i < end && buf[i]! >= ZERO && buf[i]! <= NINE) i++;
    if (i === from || i - from > 3) return false;
  }
  return i === end;
}

/**
 * Copies a reversed host name into the sink, lower-cased, checking it is labels of letters, digits, hyphens
 * and underscores joined by single dots. Returns false (sink untouched beyond its length) when it is not.
 */
function putHost(sink: Sink, buf: Buffer, start: number, end: number): boolean {
  const n = end - start;
  if (n <= 0 || n > MAX_HOST) return false;
  sink.ensure(n);
  const out = sink.buf;
  let o = sink.len;
  let labelLength = 0;
  for (let i = start; i < end; i++) {
    let c = buf[i]!;
    if (c === DOT) {
      if (labelLength === 0) return false;
      labelLength = 0;
    } else {
      if (c >= 65 && c <= 90) c += 32;
      else if (!((c >= 97 && c <= 122) || (c >= ZERO && c <= NINE) || c === 45 || c === 95)) return false;
      labelLength++;
    }
    out[o++] = c;
  }
  if (labelLength === 0) return false;
  sink.len = o;
  return true;
}

/** Fields are short: a byte loop beats Buffer#copy, which allocates a view per call. */
function put(sink: Sink, buf: Buffer, start: number, end: number) {
  sink.ensure(end - start);
  const out = sink.buf;
  let o = sink.len;
  for (let i = start; i < end; i++) out[o++] = buf[i]!;
  sink.len = o;
}

function putByte(sink: Sink, byte: number) {
  sink.ensure(1);
  sink.buf[sink.len++] = byte;
}

/**
 * Reads `file` and yields its rows in batches of `batchSize`, after skipping the first `skip` lines (those a
 * previous run committed). Throws WebgraphFormatError naming the file and line of the first bad line.
 */
export async function* scanGraphFile(
  file: string,
  kind: GraphFile,
  opts: { skip: number; batchSize: number; inDegrees?: InDegreeCounter },
): AsyncGenerator<ScanBatch> {
  const { input, close } = await openBytes(file);
  const skip = opts.skip;
  const batchSize = Math.max(1, opts.batchSize);
  let lineNo = 0;
  let linesRead = 0;
  let rows = 0;
  let chunks: Buffer[] = [];
  const sink = new Sink();
  const counter = kind === "edges" ? (opts.inDegrees ?? null) : null;
  // Vertex lines take their in-degree from the counts of an edge file read before.
  const counted = kind === "vertices" ? (opts.inDegrees?.counts ?? null) : null;
  let columns: RankColumns = DEFAULT_RANK_COLUMNS;
  // Field bounds of the current ranks line, reused (no allocation per line).
  const starts = new Int32Array(64);
  const ends = new Int32Array(64);
  let fields = 0;

  const fail = (detail: string): never => {
    throw new WebgraphFormatError(file, lineNo, detail);
  };

  /** `id<TAB>rev_host[<TAB>n_hosts]` → `id<TAB>rev_host`, and `<TAB>in_degree` when counted. */
  const rewriteVertex = (buf: Buffer, start: number, end: number) => {
    let tab = start;
    let id = 0;
    for (; tab < end && buf[tab] !== TAB; tab++) id = id * 10 + (buf[tab]! - ZERO);
    if (!isId(buf, start, tab)) fail("vertex id is not a whole number");
    let hostEnd = tab + 1;
    while (hostEnd < end && buf[hostEnd] !== TAB) hostEnd++;
    if (tab >= end) fail("not a reversed host name");
    put(sink, buf, start, tab);
    putByte(sink, TAB);
    // A failed line ends the scan: what it left in the sink is never sent.
    if (!putHost(sink, buf, tab + 1, hostEnd)) fail("not a reversed host name");
    if (counted) {
      putByte(sink, TAB);
      const n = id < counted.length ? counted[id]! : 0;
      if (n < 10) putByte(sink, ZERO + n);
      else {
        const digits = String(n);
        sink.ensure(digits.length);
        sink.len += sink.buf.write(digits, sink.len, "latin1");
      }
    }
    putByte(sink, NL);
  };

  /** A ranks line, its columns as the header says, → the fixed COPY columns. */
  const rewriteRank = (buf: Buffer, start: number, end: number) => {
    fields = 0;
    let s = start;
    for (;;) {
      let t = s;
      while (t < end && buf[t] !== TAB) t++;
      starts[fields] = s;
      ends[fields] = t;
      fields++;
      if (t >= end || fields === starts.length) break;
      s = t + 1;
    }
    const c = columns;
    let hs = c.revHost < fields ? starts[c.revHost]! : 0;
    let he = c.revHost < fields ? ends[c.revHost]! : 0;
    if (he > hs && buf[hs] === 39) hs++;
    if (he > hs && buf[he - 1] === 39) he--;
    // Checked in the order the line parser reports problems; the host itself as it is copied.
    if (he <= hs) fail("not a reversed host name");
    if (
      !(c.harmonicPos < fields) ||
      !isPosition(buf, starts[c.harmonicPos]!, ends[c.harmonicPos]!) ||
      !(c.pagerankPos < fields) ||
      !isPosition(buf, starts[c.pagerankPos]!, ends[c.pagerankPos]!)
    )
      fail("rank positions must be whole numbers from 1");
    if (
      !(c.harmonicVal < fields) ||
      !isNumber(buf, starts[c.harmonicVal]!, ends[c.harmonicVal]!) ||
      !(c.pagerankVal < fields) ||
      !isNumber(buf, starts[c.pagerankVal]!, ends[c.pagerankVal]!)
    )
      fail("rank values are not numbers");
    const n = c.hostCount;
    const counted = n !== null && n < fields;
    if (counted && !isId(buf, starts[n]!, ends[n]!)) fail("n_hosts is not a whole number");
    put(sink, buf, starts[c.harmonicPos]!, ends[c.harmonicPos]!);
    putByte(sink, TAB);
    put(sink, buf, starts[c.harmonicVal]!, ends[c.harmonicVal]!);
    putByte(sink, TAB);
    put(sink, buf, starts[c.pagerankPos]!, ends[c.pagerankPos]!);
    putByte(sink, TAB);
    put(sink, buf, starts[c.pagerankVal]!, ends[c.pagerankVal]!);
    putByte(sink, TAB);
    if (!putHost(sink, buf, hs, he)) fail("not a reversed host name");
    putByte(sink, TAB);
    if (counted) put(sink, buf, starts[n]!, ends[n]!);
    else put(sink, NULL_FIELD, 0, 2);
    putByte(sink, NL);
  };

  /** Checks an edge line, `from_id<TAB>to_id`, in place, reading both ids for the in-degree count. */
  const checkEdge = (buf: Buffer, start: number, end: number) => {
    let i = start;
    let from = 0;
    for (; i < end; i++) {
      const c = buf[i]!;
      if (c < ZERO || c > NINE) break;
      from = from * 10 + (c - ZERO);
    }
    if (i === end || buf[i] !== TAB) {
      let tab = i;
      while (tab < end && buf[tab] !== TAB) tab++;
      fail(tab < end ? "edge ids are not whole numbers" : "expected from_id<TAB>to_id");
    }
    if (i === start || i - start > MAX_ID_DIGITS) fail("edge ids are not whole numbers");
    const toStart = ++i;
    let to = 0;
    for (; i < end; i++) {
      const c = buf[i]!;
      if (c < ZERO || c > NINE) break;
      to = to * 10 + (c - ZERO);
    }
    if (i !== end || i === toStart || i - toStart > MAX_ID_DIGITS) fail("edge ids are not whole numbers");
    // 15 digits at most: exact in a double.
    counter?.add(from, to);
  };

  /**
   * The complete lines of buf[from, to): yields a batch whenever one is full. Returns where the first
   * incomplete line starts (to, when none is).
   */
  function* lines(buf: Buffer, from: number, to: number): Generator<ScanBatch, number> {
    let pos = from;
    // Start of the run of edge lines passed through unchanged.
    let run = from;
    while (pos < to) {
      const nl = buf.indexOf(NL, pos);
      if (nl < 0 || nl >= to) break;
      lineNo++;
      const start = pos;
      pos = nl + 1;
      if (lineNo === 1 && kind === "ranks" && buf[start] === HASH) {
        // The header is re-read on resume: the column layout is needed whatever line we continue from.
        const header = parseRankHeader(buf.toString("utf8", start, nl));
        if (typeof header === "string") fail(header);
        columns = header as RankColumns;
        run = pos;
        continue;
      }
      if (lineNo <= skip) {
        run = pos;
        continue;
      }
      linesRead++;
      if (nl === start || buf[start] === HASH) {
        if (kind === "edges" && run < start) chunks.push(buf.subarray(run, start));
        run = pos;
        continue;
      }
      if (kind === "edges") checkEdge(buf, start, nl);
      else if (kind === "vertices") rewriteVertex(buf, start, nl);
      else rewriteRank(buf, start, nl);
      rows++;
      if (rows >= batchSize) {
        if (kind === "edges") {
          if (run < pos) chunks.push(buf.subarray(run, pos));
          run = pos;
        } else chunks.push(...sink.take());
        yield { chunks, rows, lineNo, linesRead };
        chunks = [];
        rows = 0;
      }
    }
    if (kind === "edges" && run < pos) chunks.push(buf.subarray(run, pos));
    return pos;
  }

  // The incomplete line at the end of the previous chunk.
  let carry: Buffer | null = null;
  try {
    for await (const chunk of input as AsyncIterable<Buffer>) {
      let from = 0;
      if (carry) {
        // Join the carried part with the rest of its line only, not the whole chunk.
        const nl = chunk.indexOf(NL);
        if (nl < 0) {
          carry = Buffer.concat([carry, chunk]);
          continue;
        }
        const joined = Buffer.concat([carry, chunk.subarray(0, nl + 1)]);
        carry = null;
        yield* lines(joined, 0, joined.length);
        from = nl + 1;
      }
      const end = yield* lines(chunk, from, chunk.length);
      if (end < chunk.length) carry = chunk.subarray(end);
    }
    if (carry && carry.length > 0) {
      // A last line without its newline.
      const last = Buffer.concat([carry, Buffer.from([NL])]);
      yield* lines(last, 0, last.length);
    }
    if (kind !== "edges") chunks.push(...sink.take());
    // The last batch, also when it holds no rows: its line count records that the whole file was read.
    yield { chunks, rows, lineNo, linesRead };
  } finally {
    close();
  }
}
