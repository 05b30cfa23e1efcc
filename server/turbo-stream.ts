// React Router hands a page's loader data to the browser in turbo-stream's
// encoding, inside an inline script (StreamTransfer). A post page made
// without React Router (post-page.ts) writes the same bytes: this is
// turbo-stream 2's flatten (React Router vendors it: vendor/turbo-stream-v2),
// for the plain data loaders return — strings, numbers, booleans, null,
// undefined, arrays and plain objects — done synchronously (React Router's is
// a stream of promises: ~0.3 ms a post page), and anything else refused.
// Written here because neither package exports it (decision 097); the pages'
// byte-for-byte tests hold it to React Router's.

const HOLE = -1;
const NAN = -2;
const NEGATIVE_INFINITY = -3;
const NEGATIVE_ZERO = -4;
const NULL = -5;
const POSITIVE_INFINITY = -6;
const UNDEFINED = -7;

/** What turbo-stream cannot take here (a Date, a Map, a promise…): the caller renders the page the long way. */
export class NotPlainData extends Error {}

/** The stream's one line for `input`, its newline included (no promises: it is the whole stream). */
export function turboStreamOf(input: unknown): string {
  const indices = new Map<unknown, number>();
  const stringified: string[] = [];
  // The values still to write and their indices: a stack, the last pushed written first (as turbo-stream's).
  const pending: unknown[] = [];
  const pendingAt: number[] = [];
  let next = 0;
  // A value's index: the one it has (turbo-stream never refers back to the first, index 0), a
  // constant, or a new one, the value then waiting its turn on the stack.
  const indexOf = (value: unknown): number => {
    const existing = indices.get(value);
    if (existing) return existing;
    if (value === undefined) return UNDEFINED;
    if (value === null) return NULL;
    if (typeof value === "number") {
      if (Number.isNaN(value)) return NAN;
      if (value === Number.POSITIVE_INFINITY) return POSITIVE_INFINITY;
      if (value === Number.NEGATIVE_INFINITY) return NEGATIVE_INFINITY;
      if (value === 0 && 1 / value < 0) return NEGATIVE_ZERO;
    }
    const index = next++;
    indices.set(value, index);
    pending.push(value);
    pendingAt.push(index);
    return index;
  };
  const top = indexOf(input);
  if (top < 0) return `${top}\n`;
  while (pending.length > 0) {
    const value = pending.pop();
    const index = pendingAt.pop() as number;
    const type = typeof value;
    if (type === "string" || type === "number" || type === "boolean") {
      stringified[index] = JSON.stringify(value);
    } else if (Array.isArray(value)) {
      let text = "[";
      for (let i = 0; i < value.length; i++) {
        if (i > 0) text += ",";
        text += i in value ? indexOf(value[i]) : HOLE;
      }
      stringified[index] = `${text}]`;
    } else if (type === "object" && Object.getPrototypeOf(value) === Object.prototype) {
      const record = value as Record<string, unknown>;
      let text = "{";
      let first = true;
      for (const key of Object.keys(record)) {
        // The key's index first, then the value's.
        const keyIndex = indexOf(key);
        text += `${first ? "" : ","}"_${keyIndex}":${indexOf(record[key])}`;
        first = false;
      }
      stringified[index] = `${text}}`;
    } else {
      throw new NotPlainData(`a ${type === "object" ? "non-plain object" : type} is not written here`);
    }
  }
  return `[${stringified.join(",")}]\n`;
}

/** A JSON text made safe inside an inline script, as React Router escapes it (its escapeHtml). */
export function escapedForScript(json: string): string {
  return json.replace(/[&><\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/** The inline script's text that hands one chunk of the stream to the page (React Router's StreamTransfer). */
export function streamChunkScript(chunk: string): string {
  return `window.__reactRouterContext.streamController.enqueue(${escapedForScript(JSON.stringify(chunk))});`;
}
