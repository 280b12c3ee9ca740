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

/** A growable output buffer for rewritten lines. */
class Sink {
  buf: Buffer;
  len = 0;
  constructor(size: number) {
    this.buf = Buffer.allocUnsafe(size);
  }
  ensure(extra: number) {
    if (this.len + extra <= this.buf.length) return;
    const next = Buffer.allocUnsafe(Math.max(this.buf.length * 2, this.len + extra));
    this.buf.copy(next, 0, 0, this.len);
    this.buf = next;
  }
  take(): Buffer {
    const out = this.buf.subarray(0, this.len);
    this.buf = Buffer.allocUnsafe(Math.max(1 << 16, this.buf.length));
    this.len = 0;
    return out;
  }
}

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

function put(sink: Sink, buf: Buffer, start: number, end: number) {
  sink.ensure(end - start);
  buf.copy(sink.buf, sink.len, start, end);
  sink.len += end - start;
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
  opts: { skip: number; batchSize: number },
): AsyncGenerator<ScanBatch> {
  const { input, close } = await openBytes(file);
  const skip = opts.skip;
  const batchSize = Math.max(1, opts.batchSize);
  let lineNo = 0;
  let linesRead = 0;
  let rows = 0;
  let chunks: Buffer[] = [];
  const sink = new Sink(1 << 20);
  let columns: RankColumns = DEFAULT_RANK_COLUMNS;
  // Field bounds of the current ranks line, reused.
  const starts = new Int32Array(64);
  const ends = new Int32Array(64);

  const fail = (detail: string): never => {
    throw new WebgraphFormatError(file, lineNo, detail);
  };

  /** One rewritten line (vertices, ranks) into the sink. */
  const rewrite = (buf: Buffer, start: number, end: number) => {
    if (kind === "vertices") {
      // id<TAB>rev_host[<TAB>n_hosts]
      let tab = buf.indexOf(TAB, start);
      if (tab < 0 || tab > end) tab = end;
      if (!isId(buf, start, tab)) fail("vertex id is not a whole number");
      let hostEnd = tab < end ? buf.indexOf(TAB, tab + 1) : end;
      if (hostEnd < 0 || hostEnd > end) hostEnd = end;
      const mark = sink.len;
      if (tab < end) put(sink, buf, start, tab + 1);
      if (tab >= end || !putHost(sink, buf, tab + 1, hostEnd)) {
        sink.len = mark;
        fail("not a reversed host name");
      }
      putByte(sink, NL);
      return;
    }
    // ranks: the header's columns, in any order
    let fields = 0;
    let s = start;
    while (fields < starts.length) {
      let t = buf.indexOf(TAB, s);
      if (t < 0 || t > end) t = end;
      starts[fields] = s;
      ends[fields] = t;
      fields++;
      if (t >= end) break;
      s = t + 1;
    }
    const at = (i: number): [number, number] => (i < fields ? [starts[i]!, ends[i]!] : [0, 0]);
    let [hs, he] = at(columns.revHost);
    if (he - hs >= 1 && buf[hs] === 39) hs++;
    if (he - hs >= 1 && buf[he - 1] === 39) he--;
    const [hps, hpe] = at(columns.harmonicPos);
    const [hvs, hve] = at(columns.harmonicVal);
    const [pps, ppe] = at(columns.pagerankPos);
    const [pvs, pve] = at(columns.pagerankVal);
    const mark = sink.len;
    const undo = (detail: string) => {
      sink.len = mark;
      fail(detail);
    };
    // Check everything before writing, in the order the line parser reports problems.
    if (columns.revHost >= fields || he <= hs) undo("not a reversed host name");
    if (
      !(columns.harmonicPos < fields && isPosition(buf, hps, hpe)) ||
      !(columns.pagerankPos < fields && isPosition(buf, pps, ppe))
    )
      undo("rank positions must be whole numbers from 1");
    if (
      !(columns.harmonicVal < fields && isNumber(buf, hvs, hve)) ||
      !(columns.pagerankVal < fields && isNumber(buf, pvs, pve))
    )
      undo("rank values are not numbers");
    const hostCount = columns.hostCount;
    const counted = hostCount !== null && hostCount < fields;
    if (counted) {
      const [ns, ne] = at(hostCount);
      if (!isId(buf, ns, ne)) undo("n_hosts is not a whole number");
    }
    put(sink, buf, hps, hpe);
    putByte(sink, TAB);
    put(sink, buf, hvs, hve);
    putByte(sink, TAB);
    put(sink, buf, pps, ppe);
    putByte(sink, TAB);
    put(sink, buf, pvs, pve);
    putByte(sink, TAB);
    if (!putHost(sink, buf, hs, he)) undo("not a reversed host name");
    putByte(sink, TAB);
    if (counted) {
      const [ns, ne] = at(hostCount!);
      put(sink, buf, ns, ne);
    } else put(sink, NULL_FIELD, 0, 2);
    putByte(sink, NL);
  };

  /** Checks an edge line, `from_id<TAB>to_id`, in place. */
  const checkEdge = (buf: Buffer, start: number, end: number) => {
    let i = start;
    while (i < end && buf[i]! >= ZERO && buf[i]! <= NINE) i++;
    if (i === end || buf[i] !== TAB) {
      if (buf.indexOf(TAB, start) < 0 || buf.indexOf(TAB, start) >= end) fail("expected from_id<TAB>to_id");
      fail("edge ids are not whole numbers");
    }
    if (i === start || i - start > MAX_ID_DIGITS || !isId(buf, i + 1, end))
      fail("edge ids are not whole numbers");
  };

  let carry: Buffer | null = null;
  try {
    const iterator = input[Symbol.asyncIterator]();
    let eof = false;
    while (!eof) {
      const next = await iterator.next();
      let buf: Buffer;
      if (next.done) {
        eof = true;
        if (!carry || carry.length === 0) break;
        // A last line without its newline.
        buf = Buffer.concat([carry, Buffer.from([NL])]);
      } else {
        const chunk = next.value as Buffer;
        buf = carry && carry.length > 0 ? Buffer.concat([carry, chunk]) : chunk;
      }
      carry = null;
      let pos = 0;
      // Start of the run of edge lines passed through unchanged.
      let run = 0;
      const length = buf.length;
      while (pos < length) {
        const nl = buf.indexOf(NL, pos);
        if (nl < 0) break;
        lineNo++;
        const start = pos;
        pos = nl + 1;
        if (lineNo === 1 && kind === "ranks" && buf[start] === HASH) {
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
        else rewrite(buf, start, nl);
        rows++;
        if (rows >= batchSize) {
          if (kind === "edges") {
            if (run < pos) chunks.push(buf.subarray(run, pos));
            run = pos;
          } else chunks.push(sink.take());
          yield { chunks, rows, lineNo, linesRead };
          chunks = [];
          rows = 0;
        }
      }
      if (kind === "edges" && run < pos) chunks.push(buf.subarray(run, pos));
      if (pos < length) carry = buf.subarray(pos);
    }
    if (kind !== "edges" && sink.len > 0) chunks.push(sink.take());
    // The last batch, also when it holds no rows: its line count records that the whole file was read.
    yield { chunks, rows, lineNo, linesRead };
  } finally {
    close();
  }
}
