import { isUtf8 } from "node:buffer";
import { createReadStream } from "node:fs";
import { cutText, MAX_RECORD_BYTES, quote } from "#app/content/schemas.ts";
import { UserError } from "#cli/errors.ts";
import type { ByteCounter, Source, SourceItem } from "#cli/source.ts";

/** Bytes read from the file at a time. */
const CHUNK_BYTES = 1 << 20;

/** "1 MiB": a byte count for messages. */
export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024 && bytes % (1024 * 1024) === 0) return `${bytes / (1024 * 1024)} MiB`;
  if (bytes >= 1024 && bytes % 1024 === 0) return `${bytes / 1024} KiB`;
  return `${bytes.toLocaleString("en")} bytes`;
}

/** Bytes that are not UTF-8 (a Latin-1 export, a damaged file): the file is refused, never read as U+FFFD. */
export class InvalidTextError extends UserError {
  readonly line: number;

  constructor(line: number, detail: string) {
    super(`invalid UTF-8 at line ${line}: ${detail}; save the file as UTF-8`);
    this.line = line;
  }
}

/**
 * The next chunk of `reading`; invalid UTF-8 met inside a record is said with
 * the record's label too (`record` gives it, or null outside a record).
 */
export async function nextChunk(
  reading: AsyncIterator<string>,
  record: () => string | null,
): Promise<IteratorResult<string>> {
  try {
    return await reading.next();
  } catch (error) {
    const label = error instanceof InvalidTextError ? record() : null;
    if (label !== null) throw new UserError(`${label}: ${(error as Error).message}`);
    throw error;
  }
}

/**
 * Where the first byte that is not UTF-8 is in `bytes` (which starts at a
 * character): its offset and what is wrong; null when all is well.
 */
export function firstInvalidUtf8(bytes: Uint8Array): { at: number; detail: string } | null {
  const hex = (b: number) => `0x${b.toString(16).toUpperCase().padStart(2, "0")}`;
  for (let i = 0; i < bytes.length; ) {
    const b = bytes[i] as number;
    if (b < 0x80) {
      i++;
      continue;
    }
    let need: number;
    let min: number;
    if (b >= 0xc2 && b <= 0xdf) [need, min] = [1, 0x80];
    else if (b >= 0xe0 && b <= 0xef) [need, min] = [2, 0x800];
    else if (b >= 0xf0 && b <= 0xf4) [need, min] = [3, 0x10000];
    else return { at: i, detail: `byte ${hex(b)} cannot start a character` };
    let code = b & (0x3f >> need);
    for (let k = 1; k <= need; k++) {
      const next = bytes[i + k];
      if (next === undefined) return { at: i, detail: "the file ends inside a character" };
      if ((next & 0xc0) !== 0x80)
        return { at: i, detail: `byte ${hex(b)} is not followed by its continuation` };
      code = (code << 6) | (next & 0x3f);
    }
    if (code < min || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) {
      return { at: i, detail: `bytes from ${hex(b)} encode no character` };
    }
    i += need + 1;
  }
  return null;
}

/** Where the last whole character of `bytes` ends: a character cut by the chunk's end waits for the next. */
function wholeCharactersEnd(bytes: Buffer): number {
  for (let back = 1; back <= Math.min(4, bytes.length); back++) {
    const b = bytes[bytes.length - back] as number;
    if ((b & 0xc0) === 0x80) continue; // a continuation byte: look further back
    const length = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : b >= 0xc0 ? 2 : 1;
    return length > back ? bytes.length - back : bytes.length;
  }
  return bytes.length;
}

function countLines(bytes: Uint8Array, end = bytes.length): number {
  let lines = 0;
  for (let at = bytes.indexOf(10); at >= 0 && at < end; at = bytes.indexOf(10, at + 1)) lines++;
  return lines;
}

/** Encodings read from a file: UTF-8 (checked), or windows-1252 (which ISO-8859-1 is read as, as browsers do). */
export type TextEncoding = "utf-8" | "windows-1252";

/**
 * The file's text in chunks, counting bytes as they are read. UTF-8 is
 * checked: at the first byte that is not UTF-8, the text before it is
 * yielded (so a reader knows which record it is in), then InvalidTextError
 * names the line.
 */
export async function* readText(
  file: string,
  counter: ByteCounter,
  encoding: TextEncoding = "utf-8",
): AsyncGenerator<string> {
  const stream = createReadStream(file, { highWaterMark: CHUNK_BYTES }) as AsyncIterable<Buffer>;
  if (encoding !== "utf-8") {
    const decoder = new TextDecoder(encoding, { ignoreBOM: true });
    for await (const chunk of stream) {
      counter.bytes += chunk.length;
      yield decoder.decode(chunk, { stream: true });
    }
    const rest = decoder.decode();
    if (rest) yield rest;
    return;
  }
  let line = 1;
  let carry: Buffer | null = null;
  for await (const chunk of stream) {
    counter.bytes += chunk.length;
    const bytes: Buffer = carry ? Buffer.concat([carry, chunk]) : chunk;
    const end = wholeCharactersEnd(bytes);
    carry = end < bytes.length ? Buffer.from(bytes.subarray(end)) : null;
    const body = bytes.subarray(0, end);
    if (!isUtf8(body)) {
      const bad = firstInvalidUtf8(body) ?? { at: 0, detail: "a byte is not UTF-8" };
      if (bad.at > 0) yield body.toString("utf8", 0, bad.at);
      throw new InvalidTextError(line + countLines(body, bad.at), bad.detail);
    }
    line += countLines(body);
    yield body.toString("utf8");
  }
  if (carry) throw new InvalidTextError(line, "the file ends inside a character");
}

export interface JsonElement {
  /** "posts" or "pages" for `{ "posts": [...] }`, null for a top-level array. */
  section: "posts" | "pages" | null;
  index: number;
  /** Line of the element's first character, from 1. */
  line: number;
  text: string;
}

enum State {
  Begin,
  ObjectKey,
  ObjectKeyText,
  ObjectColon,
  ObjectValue,
  ObjectAfterValue,
  ArrayStart,
  ArrayElement,
  ArrayAfterElement,
  End,
}

const QUOTE = 34;
const BACKSLASH = 92;
const COMMA = 44;
const COLON = 58;
const OPEN_BRACE = 123;
const CLOSE_BRACE = 125;
const OPEN_BRACKET = 91;
const CLOSE_BRACKET = 93;
const NEWLINE = 10;

const isSpace = (c: number) => c === 32 || c === 10 || c === 13 || c === 9 || c === 0xfeff;

/**
 * Splits a JSON array of records, or an object `{ "posts": [...], "pages": [...] }`,
 * into the source text of each record without holding the whole file: only
 * the record being read is in memory. Each record is then `JSON.parse`d on
 * its own. Structural errors stop the read with the line they are on.
 */
export async function* splitJson(chunks: AsyncIterable<string>): AsyncGenerator<JsonElement> {
  let state = State.Begin;
  let line = 1;
  let section: "posts" | "pages" | null = null;
  let index = 0;
  let afterComma = false;
  let sawKey = false;
  const seenKeys = new Set<string>();
  // The element (or key) being read: parts from earlier chunks, then the current one from `start`.
  let parts: string[] = [];
  let start = -1;
  let elementLine = 0;
  let depth = 0;
  let inString = false;
  let escaped = false;
  /** Bytes of the element being read (UTF-8, as in the file), and characters of the key. */
  let elementBytes = 0;
  let keyLength = 0;
  const fail = (message: string): never => {
    throw new UserError(`invalid JSON at line ${line}: ${message}`);
  };
  const found = (c: number) =>
    Number.isNaN(c) ? "the end of the file" : JSON.stringify(String.fromCharCode(c));

  const elementLabel = () => label({ section, index, line: elementLine, text: "" });

  const pending: JsonElement[] = [];
  const reading = chunks[Symbol.asyncIterator]();
  for (;;) {
    const next = await nextChunk(reading, () => (state === State.ArrayElement ? elementLabel() : null));
    if (next.done) break;
    const chunk = next.value;
    for (let i = 0; i < chunk.length; i++) {
      const c = chunk.charCodeAt(i);
      if (c === NEWLINE) line++;
      switch (state) {
        case State.Begin:
          if (isSpace(c)) break;
          if (c === OPEN_BRACKET) state = State.ArrayStart;
          else if (c === OPEN_BRACE) state = State.ObjectKey;
          else fail(`a file of records starts with [ or {, not ${found(c)}`);
          break;
        case State.ObjectKey:
          if (isSpace(c)) break;
          if (c === QUOTE) {
            state = State.ObjectKeyText;
            parts = [];
            start = i + 1;
            escaped = false;
            keyLength = 0;
          } else if (c === CLOSE_BRACE && !sawKey) state = State.End;
          else fail(`expected a key ("posts" or "pages"), found ${found(c)}`);
          break;
        case State.ObjectKeyText:
          // The only keys are "posts" and "pages": a long one is refused before it is all read.
          if (++keyLength > MAX_KEY_LENGTH) {
            parts.push(chunk.slice(start, i));
            start = -1;
            fail(`unknown key ${quote(`${parts.join("")}…`)} (a file is { "posts": [...], "pages": [...] })`);
          }
          if (escaped) escaped = false;
          else if (c === BACKSLASH) escaped = true;
          else if (c === QUOTE) {
            parts.push(chunk.slice(start, i));
            start = -1;
            const key = JSON.parse(`"${parts.join("")}"`) as string;
            if (key !== "posts" && key !== "pages") {
              fail(`unknown key ${quote(key)} (a file is { "posts": [...], "pages": [...] })`);
            }
            if (seenKeys.has(key)) fail(`"${key}" appears twice`);
            seenKeys.add(key);
            section = key as "posts" | "pages";
            sawKey = true;
            state = State.ObjectColon;
          }
          break;
        case State.ObjectColon:
          if (isSpace(c)) break;
          if (c !== COLON) fail(`expected : after "${section}", found ${found(c)}`);
          state = State.ObjectValue;
          break;
        case State.ObjectValue:
          if (isSpace(c)) break;
          if (c !== OPEN_BRACKET) fail(`"${section}" must be an array, found ${found(c)}`);
          state = State.ArrayStart;
          index = 0;
          afterComma = false;
          break;
        case State.ObjectAfterValue:
          if (isSpace(c)) break;
          if (c === COMMA) state = State.ObjectKey;
          else if (c === CLOSE_BRACE) state = State.End;
          else fail(`expected , or } after the "${section}" array, found ${found(c)}`);
          break;
        case State.ArrayStart:
          if (isSpace(c)) break;
          if (c === CLOSE_BRACKET) {
            if (afterComma) fail("a trailing comma before ]");
            state = section === null ? State.End : State.ObjectAfterValue;
            break;
          }
          if (c === COMMA) fail("an empty element (two commas, or a comma after [)");
          state = State.ArrayElement;
          parts = [];
          start = i;
          elementLine = line;
          elementBytes = 0;
          depth = 0;
          inString = false;
          escaped = false;
          i--; // the element's first character is read again, by ArrayElement
          break;
        case State.ArrayElement:
          // UTF-8 bytes of the character (a surrogate pair is 2 + 2); past the limit, the read stops.
          elementBytes += c < 0x80 ? 1 : c < 0x800 || (c >= 0xd800 && c <= 0xdfff) ? 2 : 3;
          if (elementBytes > MAX_RECORD_BYTES) {
            throw new UserError(
              `${elementLabel()}: the record is larger than ${formatBytes(MAX_RECORD_BYTES)}, the most a record may be (nothing after it was read)`,
            );
          }
          if (inString) {
            if (escaped) escaped = false;
            else if (c === BACKSLASH) escaped = true;
            else if (c === QUOTE) inString = false;
          } else if (c === QUOTE) inString = true;
          else if (c === OPEN_BRACE || c === OPEN_BRACKET) depth++;
          else if ((c === CLOSE_BRACE || c === CLOSE_BRACKET) && depth > 0) depth--;
          else if ((c === COMMA || c === CLOSE_BRACKET || c === CLOSE_BRACE) && depth === 0) {
            if (c === CLOSE_BRACE) fail("unexpected }");
            parts.push(chunk.slice(start, i));
            start = -1;
            pending.push({ section, index, line: elementLine, text: parts.join("") });
            parts = [];
            index++;
            if (c === COMMA) {
              state = State.ArrayStart;
              afterComma = true;
            } else {
              state = section === null ? State.End : State.ObjectAfterValue;
            }
          }
          break;
        case State.End:
          if (!isSpace(c)) fail(`unexpected ${found(c)} after the end of the data`);
          break;
      }
    }
    if (start >= 0) {
      parts.push(chunk.slice(start));
      start = 0;
    }
    yield* pending;
    pending.length = 0;
  }
  if (state !== State.End) fail(state === State.Begin ? "the file is empty" : "the file ends too early");
}

/** Longer than any key a file of records has ("posts", "pages"). */
const MAX_KEY_LENGTH = 64;

function label(element: JsonElement): string {
  const path = element.section === null ? `[${element.index}]` : `${element.section}[${element.index}]`;
  return `${path} (line ${element.line})`;
}

/** A JSON file: an array of post records, or `{ "posts": [...], "pages": [...] }`. */
export function jsonSource(file: string): Source {
  return {
    format: "json",
    async *items(counter) {
      for await (const element of splitJson(readText(file, counter))) {
        let value: unknown;
        try {
          value = JSON.parse(element.text);
        } catch (error) {
          throw new UserError(`invalid JSON in ${label(element)}: ${cutText((error as Error).message, 200)}`);
        }
        const item: SourceItem =
          value !== null && typeof value === "object" && !Array.isArray(value)
            ? { kind: element.section === "pages" ? "page" : "post", label: label(element), value }
            : { kind: "invalid", label: label(element), message: "expected a JSON object" };
        yield item;
      }
    },
  };
}

/**
 * The lines of a file as bytes, numbered from 1: \n, \r\n and a lone \r
 * end a line (as readline reads them). A line longer than `maxBytes` stops
 * the read there, naming it: only one line is ever held.
 */
export async function* readLines(
  file: string,
  counter: ByteCounter,
  maxBytes: number,
): AsyncGenerator<{ number: number; bytes: Buffer }> {
  let number = 0;
  let parts: Buffer[] = [];
  let partsLength = 0;
  const tooLong = () =>
    new UserError(
      `line ${number + 1}: the record is larger than ${formatBytes(maxBytes)}, the most a record may be (nothing after it was read)`,
    );
  function* lines(segment: Buffer): Generator<{ number: number; bytes: Buffer }> {
    // One \n-ended segment: a \r before the \n ends nothing more; other \r end lines of their own.
    const body = segment.at(-1) === 13 ? segment.subarray(0, -1) : segment;
    let from = 0;
    for (let cr = body.indexOf(13); cr >= 0; cr = body.indexOf(13, from)) {
      yield { number: ++number, bytes: body.subarray(from, cr) };
      from = cr + 1;
    }
    yield { number: ++number, bytes: body.subarray(from) };
  }
  for await (const chunk of createReadStream(file, { highWaterMark: CHUNK_BYTES }) as AsyncIterable<Buffer>) {
    counter.bytes += chunk.length;
    let from = 0;
    for (let nl = chunk.indexOf(10); nl >= 0; nl = chunk.indexOf(10, from)) {
      if (partsLength + nl - from > maxBytes + 1) throw tooLong();
      const piece = chunk.subarray(from, nl);
      const segment = parts.length > 0 ? Buffer.concat([...parts, piece]) : piece;
      parts = [];
      partsLength = 0;
      yield* lines(segment);
      from = nl + 1;
    }
    if (from < chunk.length) {
      parts.push(chunk.subarray(from));
      partsLength += chunk.length - from;
      // +1: a \r of a \r\n may wait for its \n.
      if (partsLength > maxBytes + 1) throw tooLong();
    }
  }
  if (partsLength > 0) yield* lines(Buffer.concat(parts));
}

/** NDJSON: one post record a line; blank lines are ignored. */
export function ndjsonSource(file: string): Source {
  return {
    format: "ndjson",
    async *items(counter) {
      for await (const { number, bytes } of readLines(file, counter, MAX_RECORD_BYTES)) {
        const itemLabel = `line ${number}`;
        if (bytes.length > MAX_RECORD_BYTES) {
          throw new UserError(
            `${itemLabel}: the record is larger than ${formatBytes(MAX_RECORD_BYTES)}, the most a record may be (nothing after it was read)`,
          );
        }
        if (!isUtf8(bytes)) {
          const bad = firstInvalidUtf8(bytes);
          yield {
            kind: "invalid",
            label: itemLabel,
            message: `invalid UTF-8 at byte ${(bad?.at ?? 0) + 1} of the line: ${bad?.detail ?? "a byte is not UTF-8"}; save the file as UTF-8`,
          };
          continue;
        }
        const line = bytes.toString("utf8");
        const text = number === 1 ? line.replace(/^\uFEFF/, "") : line;
        if (text.trim() === "") continue;
        let value: unknown;
        try {
          value = JSON.parse(text);
        } catch (error) {
          yield {
            kind: "invalid",
            label: itemLabel,
            message: `invalid JSON: ${cutText((error as Error).message, 200)}`,
          };
          continue;
        }
        if (value === null || typeof value !== "object" || Array.isArray(value)) {
          yield {
            kind: "invalid",
            label: itemLabel,
            message: "expected a JSON object (one post record a line)",
          };
          continue;
        }
        yield { kind: "post", label: itemLabel, value };
      }
    },
  };
}
