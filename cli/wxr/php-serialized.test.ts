import { expect, test } from "vitest";
import { parsePhpSerialized } from "#cli/wxr/php-serialized.ts";

test("PHP serialized values: arrays, strings by UTF-8 byte length, ints, nested extra data", () => {
  expect(parsePhpSerialized('a:2:{s:2:"en";i:12;s:2:"hi";i:15;}')).toEqual(
    new Map([
      ["en", 12],
      ["hi", 15],
    ]),
  );
  // Polylang's map with its "sync" data, and ids stored as strings.
  expect(
    parsePhpSerialized('a:3:{s:2:"en";i:413;s:2:"fr";s:3:"414";s:4:"sync";a:2:{s:2:"fr";s:2:"en";i:0;b:1;}}'),
  ).toEqual(
    new Map<string | number, unknown>([
      ["en", 413],
      ["fr", "414"],
      [
        "sync",
        new Map<string | number, unknown>([
          ["fr", "en"],
          [0, true],
        ]),
      ],
    ]),
  );
  // Lengths count UTF-8 bytes: हिन्दी is 6 code points, 18 bytes; a quote inside is only text.
  expect(parsePhpSerialized('a:2:{s:4:"name";s:18:"हिन्दी";s:5:"quote";s:7:"a";b:"c";}')).toEqual(
    new Map([
      ["name", "हिन्दी"],
      ["quote", 'a";b:"c'],
    ]),
  );
  expect(parsePhpSerialized("N;")).toBeNull();
  expect(parsePhpSerialized("i:-7;")).toBe(-7);
  expect(parsePhpSerialized("d:0.5;")).toBe(0.5);
  expect(parsePhpSerialized('s:0:"";')).toBe("");
  expect(parsePhpSerialized("a:0:{}")).toEqual(new Map());
});

test("PHP serialized values: anything else is refused with the byte where it goes wrong, never run", () => {
  const refused = (text: string, message: string | RegExp) =>
    expect(() => parsePhpSerialized(text)).toThrow(message);
  refused('O:8:"stdClass":0:{}', "unsupported type 'O' at byte 0");
  refused('a:1:{s:1:"x";r:1;}', "unsupported type 'r' at byte 13");
  refused('C:11:"ArrayObject":0:{}', "unsupported type 'C'");
  refused('s:2:"हिन्दी";', "a string of 2 bytes cuts a UTF-8 character at byte 0");
  refused('s:6:"हिन्दी";', /expected '"'/); // 6 bytes are two characters: the length is wrong
  refused('s:99:"short";', "a string of 99 bytes runs past the end");
  refused('a:2:{s:2:"en";i:12;', "unexpected end");
  refused('a:1:{s:2:"en";i:12;}junk', "unexpected text after the value at byte 20");
  refused("a:1:{a:0:{}i:1;}", "expected an integer or string key at byte 5");
  refused("i:12abc;", '"12abc" is not an integer at byte 0');
  refused("i:99999999999999999999;", "is not an integer");
  refused("b:2;", "is not a boolean");
  refused("", "unexpected end at byte 0");
  refused(`${"a:1:{i:0;".repeat(40)}N;${"}".repeat(40)}`, "arrays nested too deep");
});
