import { describe, expect, test } from "vitest";
import {
  COLLECTION_MAX,
  type CollectionEntry,
  decodeCollection,
  encodeCollection,
} from "#app/content/collection-code.ts";
import { LANGUAGES } from "#app/content/languages.ts";

const entry = (language: CollectionEntry["language"], idNum: number): CollectionEntry => ({
  language,
  idNum,
});

describe("collection codes", () => {
  test("round-trip in order, across languages and sizes of idNum", () => {
    const lists: CollectionEntry[][] = [
      [entry("english", 1)],
      [entry("hindi", 42), entry("english", 42), entry("marathi", 0)],
      [entry("marathi", 42), entry("hindi", 5460), entry("english", 5461), entry("hindi", 99_999_999)],
      [entry("english", 2 ** 50), entry("marathi", 2 ** 50 - 1)],
    ];
    for (const list of lists) expect(decodeCollection(encodeCollection(list))).toEqual(list);
  });

  test("the same list gives the same code; another order another code", () => {
    const list = [entry("hindi", 3), entry("english", 7)];
    expect(encodeCollection(list)).toBe(encodeCollection([...list]));
    expect(encodeCollection(list.toReversed())).not.toBe(encodeCollection(list));
  });

  test("keeps the first 100 pairs, each once", () => {
    const many = Array.from({ length: 130 }, (_, i) => entry(LANGUAGES[i % 3]!, 1000 + i));
    const decoded = decodeCollection(encodeCollection([many[0]!, ...many]));
    expect(decoded).toEqual(many.slice(0, COLLECTION_MAX));
  });

  test("a hundred quotes of idNums under 5,461 take 267 characters, under 699,050 400", () => {
    const small = Array.from({ length: 100 }, (_, i) => entry("marathi", 5460 - i));
    expect(encodeCollection(small)).toHaveLength(267);
    const large = Array.from({ length: 100 }, (_, i) => entry("marathi", 699_049 - i));
    expect(encodeCollection(large)).toHaveLength(400);
  });

  test("garbage, other spellings of a list and more than 100 pairs are refused", () => {
    const twoBytes = encodeCollection([entry("english", 100)]); // 3 characters, the last with 2 bits to spare
    const strayBits =
      twoBytes.slice(0, 2) +
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"[
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".indexOf(twoBytes[2]!) ^ 1
      ];
    const overlong = "gAA"; // 0x80 0x00: zero written in two bytes
    const tooMany = encodeCollection(Array.from({ length: 100 }, (_, i) => entry("english", i + 1)));
    for (const bad of [
      "",
      "!",
      "a b",
      "%41",
      "A",
      overlong,
      strayBits,
      "gA", // a varint cut short
      "AwM", // english 1 twice
      `${tooMany}Bg`,
      "_".repeat(2000),
    ]) {
      expect(decodeCollection(bad), bad).toBeNull();
    }
  });
});
