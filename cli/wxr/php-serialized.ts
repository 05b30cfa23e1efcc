/** A value of PHP's serialize() format: arrays become Maps (keys in order). */
export type PhpValue = null | boolean | number | string | Map<string | number, PhpValue>;

const MAX_PHP_DEPTH = 32;

/**
 * Reads the part of PHP's serialize() format WordPress plugins store in term
 * descriptions: arrays a:N:{…}, strings s:LEN:"…"; (LEN counts UTF-8 bytes),
 * integers i:N;, floats d:N;, booleans b:0; and null N;. Objects, references
 * and anything else are refused: nothing is ever evaluated or instantiated.
 * Throws an Error naming the byte where the text stops making sense.
 */
export function parsePhpSerialized(text: string): PhpValue {
  const bytes = Buffer.from(text, "utf8");
  const decoder = new TextDecoder("utf-8", { fatal: true });
  let at = 0;
  const fail = (problem: string, where = at): never => {
    throw new Error(`${problem} at byte ${where}`);
  };
  const expect = (char: string) => {
    if (bytes[at] !== char.charCodeAt(0)) fail(`expected '${char}'`);
    at++;
  };
  const until = (end: string): string => {
    const stop = bytes.indexOf(end.charCodeAt(0), at);
    if (stop < 0) fail(`expected '${end}'`);
    const token = bytes.toString("latin1", at, stop);
    at = stop + 1;
    return token;
  };
  const count = (end: string): number => {
    const start = at;
    const token = until(end);
    if (!/^\d{1,9}$/.test(token)) fail(`"${token}" is not a length`, start);
    return Number(token);
  };
  const value = (depth: number): PhpValue => {
    const start = at;
    const type = String.fromCharCode(bytes[at] ?? 0);
    if (!"Nbidsa".includes(type)) {
      return fail(start >= bytes.length ? "unexpected end" : `unsupported type '${type}'`);
    }
    at++;
    if (type === "N") {
      expect(";");
      return null;
    }
    expect(":");
    switch (type) {
      case "b": {
        const token = until(";");
        if (token !== "0" && token !== "1") fail(`"${token}" is not a boolean`, start);
        return token === "1";
      }
      case "i": {
        const token = until(";");
        const n = Number(token);
        if (!/^[+-]?\d+$/.test(token) || !Number.isSafeInteger(n))
          fail(`"${token}" is not an integer`, start);
        return n;
      }
      case "d": {
        const token = until(";");
        if (token === "INF") return Number.POSITIVE_INFINITY;
        if (token === "-INF") return Number.NEGATIVE_INFINITY;
        if (token === "NAN") return Number.NaN;
        if (!/^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/.test(token))
          fail(`"${token}" is not a number`, start);
        return Number(token);
      }
      case "s": {
        const length = count(":");
        expect('"');
        if (at + length > bytes.length) fail(`a string of ${length} bytes runs past the end`, start);
        let string = "";
        try {
          string = decoder.decode(bytes.subarray(at, at + length));
        } catch {
          fail(`a string of ${length} bytes cuts a UTF-8 character`, start);
        }
        at += length;
        expect('"');
        expect(";");
        return string;
      }
      case "a": {
        if (depth >= MAX_PHP_DEPTH) fail("arrays nested too deep", start);
        const entries = count(":");
        expect("{");
        const map = new Map<string | number, PhpValue>();
        for (let i = 0; i < entries; i++) {
          const keyType = bytes[at];
          if (keyType === undefined) fail("unexpected end");
          if (keyType !== 0x69 /* i */ && keyType !== 0x73 /* s */) fail("expected an integer or string key");
          map.set(value(depth + 1) as string | number, value(depth + 1));
        }
        expect("}");
        return map;
      }
      default:
        return fail(`unsupported type '${type}'`, start);
    }
  };
  const result = value(0);
  if (at !== bytes.length) fail("unexpected text after the value");
  return result;
}
