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
  let next = 0;
  // As turbo-stream's: a value seen before is its index (not the first one, index 0, which reads as none).
  const flattenValue = (value: unknown, stack: [unknown, number][]): number | [number] => {
    const existing = indices.get(value);
    if (existing) return [existing];
    if (value === undefined) return UNDEFINED;
    if (value === null) return NULL;
    if (Number.isNaN(value)) return NAN;
    if (value === Number.POSITIVE_INFINITY) return POSITIVE_INFINITY;
    if (value === Number.NEGATIVE_INFINITY) return NEGATIVE_INFINITY;
    if (value === 0 && 1 / value < 0) return NEGATIVE_ZERO;
    const index = next++;
    indices.set(value, index);
    stack.push([value, index]);
    return index;
  };
  const stack: [unknown, number][] = [];
  const top = flattenValue(input, stack);
  if (Array.isArray(top)) throw new NotPlainData("a value seen before cannot start the stream");
  if (top < 0) return `${top}\n`;
  while (stack.length > 0) {
    const [value, index] = stack.pop() as [unknown, number];
    switch (typeof value) {
      case "boolean":
      case "number":
      case "string":
        stringified[index] = JSON.stringify(value);
        break;
      case "object": {
        if (value === null) {
          stringified[index] = `${NULL}`;
        } else if (Array.isArray(value)) {
          let result = "[";
          for (let i = 0; i < value.length; i++) {
            result += (i ? "," : "") + (i in value ? flattenValue(value[i], stack) : HOLE);
          }
          stringified[index] = `${result}]`;
        } else if (Object.getPrototypeOf(value) === Object.prototype) {
          const record = value as Record<string, unknown>;
          stringified[index] = `{${Object.keys(record)
            .map((key) => `"_${flattenValue(key, stack)}":${flattenValue(record[key], stack)}`)
            .join(",")}}`;
        } else {
          throw new NotPlainData("only plain objects and arrays are written here");
        }
        break;
      }
      default:
        throw new NotPlainData(`a ${typeof value} is not written here`);
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
