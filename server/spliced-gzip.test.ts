import { gunzipSync } from "node:zlib";
import { expect, test } from "vitest";
import { seededRandom } from "#app/content/sampling.ts";
import { deflatedPart, splicedGzip } from "./spliced-gzip.ts";

test("parts compressed apart and placed one after another are the gzip of the whole text", () => {
  const random = seededRandom(29);
  const pieces = ["", "<p>", "प्रेम ही सत्य है", "a".repeat(70_000), "&amp;", "\u0000\u00ff", "\n", "मराठी"];
  for (let round = 0; round < 200; round++) {
    const count = 1 + Math.floor(random() * 6);
    const texts = Array.from({ length: count }, () =>
      Buffer.from(
        Array.from(
          { length: Math.floor(random() * 8) },
          () => pieces[Math.floor(random() * pieces.length)],
        ).join(""),
      ),
    );
    const whole = Buffer.concat(texts);
    const parts = texts.map((text, i) =>
      deflatedPart(text, { level: 1 + (round % 9), last: i === texts.length - 1, windowBits: 9 + (i % 7) }),
    );
    expect(gunzipSync(splicedGzip(whole, parts)).equals(whole)).toBe(true);
  }
});

test("a wrong whole text is refused by the gzip check, not passed on", () => {
  const parts = [
    deflatedPart(Buffer.from("hello "), { level: 6 }),
    deflatedPart(Buffer.from("world"), { level: 6, last: true }),
  ];
  expect(gunzipSync(splicedGzip(Buffer.from("hello world"), parts)).toString()).toBe("hello world");
  expect(() => gunzipSync(splicedGzip(Buffer.from("hello there"), parts))).toThrow();
});
