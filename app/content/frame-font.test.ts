import { readFileSync, statSync } from "node:fs";
import path from "node:path";
import { expect, test } from "vitest";
import { frameDevanagari, frameUnicodeRange } from "./frame-font.ts";

const STYLES = path.resolve(import.meta.dirname, "../styles");

test("the frame font's unicode-range is every Devanagari letter of the frame's words (else: npx tsx scripts/make-frame-font.ts)", () => {
  expect(frameDevanagari().join("")).toContain("ह");
  const css = readFileSync(path.join(STYLES, "fonts.css"), "utf8");
  const ranges = [...css.matchAll(/unicode-range:\s*([^;]*); \/\* frame-font \*\//g)].map((match) =>
    match[1]?.replace(/\s+/g, " ").trim(),
  );
  expect(ranges).toEqual([frameUnicodeRange(), frameUnicodeRange()]);
  for (const weight of [400, 700]) {
    // A few KB, not the whole face's ~50 KB.
    const size = statSync(path.join(STYLES, `fonts/noto-sans-devanagari-frame-${weight}.woff2`)).size;
    expect(size).toBeGreaterThan(500);
    expect(size).toBeLessThan(8000);
  }
});
