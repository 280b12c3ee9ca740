import { validationError } from "@/lib/errors";
import {
  createLogLineParser,
  createLogRecordParser,
  DEFAULT_MAX_LINE,
  type ParseLogOptions,
} from "./log-parser";
import type { LogEntry, LogLineError, LogLineResult } from "./log-types";

export type LogSource =
  | string
  | Uint8Array
  | Iterable<string | Uint8Array>
  | AsyncIterable<string | Uint8Array>;

function isAsyncIterable(value: unknown): value is AsyncIterable<string | Uint8Array> {
  return typeof (value as AsyncIterable<unknown>)?.[Symbol.asyncIterator] === "function";
}

/** A log that came as one JSON array: its elements, each one record (the Vercel drain's JSON delivery format). */
export interface LogRecords {
  records: unknown[];
}

const isRecords = (source: unknown): source is LogRecords =>
  typeof source === "object" && source !== null && Array.isArray((source as LogRecords).records);

/**
 * A log sent as one JSON array of records as its records, parsed once (each is read as it is, never written back
 * to text); any other log as it is. An array that is not valid JSON is refused whole.
 */
export function jsonArrayAsRecords(source: LogSource): LogSource | LogRecords {
  if (typeof source !== "string" && !(source instanceof Uint8Array)) return source;
  if (!startsWithBracket(source)) return source;
  const text = typeof source === "string" ? source : new TextDecoder("utf-8").decode(source);
  let records: unknown;
  try {
    records = JSON.parse(text.replace(/^\uFEFF/, ""));
  } catch (err) {
    throw validationError(
      "The body starts as a JSON array of log records but is not valid JSON.",
      [{ field: "body", message: (err as Error).message.slice(0, 200) }],
      { reason: "malformed_json" },
    );
  }
  return { records: records as unknown[] };
}

/** Whether the first character past a byte-order mark and white space is "[" (read without decoding the log). */
function startsWithBracket(source: string | Uint8Array): boolean {
  if (typeof source === "string") return /^\uFEFF?\s*\[/.test(source);
  let i = source[0] === 0xef && source[1] === 0xbb && source[2] === 0xbf ? 3 : 0;
  while (
    i < source.length &&
    (source[i] === 0x20 || source[i] === 0x09 || source[i] === 0x0a || source[i] === 0x0d)
  )
    i++;
  return source[i] === 0x5b;
}

/**
 * Parses a log as it streams in, one result per non-blank line, in order. Byte chunks (a file or request
 * stream) are split into lines wherever they break; strings are taken as whole lines (readline output) and
 * split on any newlines inside them. A line longer than `maxLineLength` is reported without being held in
 * memory.
 */
export async function* parseLogStream(
  source: LogSource | LogRecords,
  options: ParseLogOptions = {},
): AsyncGenerator<LogLineResult> {
  if (isRecords(source)) {
    const parseRecord = createLogRecordParser(options);
    for (let i = 0; i < source.records.length; i++) {
      const result = parseRecord(source.records[i], i + 1);
      if (result) yield result;
    }
    return;
  }
  const maxLength = options.maxLineLength ?? DEFAULT_MAX_LINE;
  const decoder = new TextDecoder("utf-8");
  const parseLine = createLogLineParser(options);
  let lineNumber = 0;
  let pending = "";
  let overflow = 0; // characters dropped from the current over-long line

  function* finishLine(text: string): Generator<LogLineResult> {
    lineNumber++;
    if (overflow > 0) {
      const length = overflow + text.length;
      overflow = 0;
      yield {
        ok: false,
        error: { line: lineNumber, reason: `line too long: ${length} characters (limit ${maxLength})` },
      };
      return;
    }
    if (text.trim() === "") return;
    const result = parseLine(text, lineNumber);
    if (result) yield result;
  }

  function* takeChunk(text: string): Generator<LogLineResult> {
    let start = 0;
    let newline = text.indexOf("\n", start);
    while (newline !== -1) {
      yield* finishLine(pending + text.slice(start, newline));
      pending = "";
      start = newline + 1;
      newline = text.indexOf("\n", start);
    }
    pending += text.slice(start);
    if (pending.length > maxLength) {
      overflow += pending.length;
      pending = "";
    }
  }

  const items: AsyncIterable<string | Uint8Array> | Iterable<string | Uint8Array> =
    typeof source === "string" || source instanceof Uint8Array ? [source] : source;
  const iterate = isAsyncIterable(items)
    ? items
    : (async function* () {
        yield* items;
      })();
  for await (const item of iterate) {
    if (typeof item === "string") {
      if (source === item) yield* takeChunk(item);
      else {
        const pieces = item.split("\n");
        if (pieces.length > 1 && pieces[pieces.length - 1] === "") pieces.pop(); // "line\n" is one line
        for (const text of pieces) yield* finishLine(text);
      }
    } else {
      yield* takeChunk(decoder.decode(item, { stream: true }));
    }
  }
  yield* takeChunk(decoder.decode());
  if (pending !== "" || overflow > 0) yield* finishLine(pending);
}

/** Parses a whole log held in memory (an upload): the entries, and one error per unreadable line. */
export function parseLog(content: string | Uint8Array, options: ParseLogOptions = {}) {
  const text = typeof content === "string" ? content : new TextDecoder("utf-8").decode(content);
  const entries: LogEntry[] = [];
  const errors: LogLineError[] = [];
  const parseLine = createLogLineParser(options);
  const lines = text.split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  lines.forEach((lineText, index) => {
    if (lineText.trim() === "") return;
    const result = parseLine(lineText, index + 1);
    if (!result) return;
    if (result.ok) entries.push(result.entry);
    else if (!result.skip) errors.push(result.error);
  });
  return { entries, errors };
}
