import { createReadStream } from "node:fs";
import { createInterface } from "node:readline";
import { StringDecoder } from "node:string_decoder";
import { UserError } from "#cli/errors.ts";
import type { ByteCounter, Source, SourceItem } from "#cli/source.ts";

/** The file's text in chunks, counting bytes as they are read. */
export async function* readText(file: string, counter: ByteCounter): AsyncGenerator<string> {
  const decoder = new StringDecoder("utf8");
  for await (const chunk of createReadStream(file, { highWaterMark: 1 << 20 }) as AsyncIterable<Buffer>) {
    counter.bytes += chunk.length;
    yield decoder.write(chunk);
  }
  const rest = decoder.end();
  if (rest) yield rest;
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
  const fail = (message: string): never => {
    throw new UserError(`invalid JSON at line ${line}: ${message}`);
  };
  const found = (c: number) =>
    Number.isNaN(c) ? "the end of the file" : JSON.stringify(String.fromCharCode(c));

  const pending: JsonElement[] = [];
  for await (const chunk of chunks) {
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
          } else if (c === CLOSE_BRACE && !sawKey) state = State.End;
          else fail(`expected a key ("posts" or "pages"), found ${found(c)}`);
          break;
        case State.ObjectKeyText:
          if (escaped) escaped = false;
          else if (c === BACKSLASH) escaped = true;
          else if (c === QUOTE) {
            parts.push(chunk.slice(start, i));
            start = -1;
            const key = JSON.parse(`"${parts.join("")}"`) as string;
            if (key !== "posts" && key !== "pages") {
              fail(`unknown key ${JSON.stringify(key)} (a file is { "posts": [...], "pages": [...] })`);
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
          depth = 0;
          inString = false;
          escaped = false;
          i--; // the element's first character is read again, by ArrayElement
          break;
        case State.ArrayElement:
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
          throw new UserError(`invalid JSON in ${label(element)}: ${(error as Error).message}`);
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

/** NDJSON: one post record a line; blank lines are ignored. */
export function ndjsonSource(file: string): Source {
  return {
    format: "ndjson",
    async *items(counter) {
      const stream = createReadStream(file, { highWaterMark: 1 << 20 });
      stream.on("data", (chunk) => {
        counter.bytes += chunk.length;
      });
      const lines = createInterface({ input: stream, crlfDelay: Number.POSITIVE_INFINITY });
      let number = 0;
      for await (const line of lines) {
        number++;
        const text = number === 1 ? line.replace(/^\uFEFF/, "") : line;
        if (text.trim() === "") continue;
        const itemLabel = `line ${number}`;
        let value: unknown;
        try {
          value = JSON.parse(text);
        } catch (error) {
          yield { kind: "invalid", label: itemLabel, message: `invalid JSON: ${(error as Error).message}` };
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
