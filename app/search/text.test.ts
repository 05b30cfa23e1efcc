import { expect, test } from "vitest";
import { capSearchText, checkSearchText, searchPath } from "#app/search/text.ts";

test("search text is trimmed", () => {
  expect(checkSearchText("  प्रेम \n")).toEqual({ kind: "ok", text: "प्रेम" });
});

test("empty or blank text does nothing", () => {
  expect(checkSearchText("")).toEqual({ kind: "empty" });
  expect(checkSearchText(" \t ")).toEqual({ kind: "empty" });
});

test("text of 100 code points passes; 101 is refused", () => {
  expect(checkSearchText("a".repeat(100)).kind).toBe("ok");
  expect(checkSearchText("a".repeat(101))).toMatchObject({ kind: "too-long", length: 101 });
  // Devanagari counts code points: क्ष is three.
  expect(checkSearchText("क्ष".repeat(33)).kind).toBe("ok");
  expect(checkSearchText("क्ष".repeat(34)).kind).toBe("too-long");
});

test("the server cuts long text to 100 code points and says so", () => {
  expect(capSearchText("x".repeat(150))).toEqual({ text: "x".repeat(100), cut: true });
  expect(capSearchText(" love ")).toEqual({ text: "love", cut: false });
  const emoji = "🙏".repeat(120);
  expect(Array.from(capSearchText(emoji).text)).toHaveLength(100);
});

test("search path encodes the text as one segment", () => {
  expect(searchPath("a/b c")).toBe("/search/a%2Fb%20c");
  // Dot segments would be resolved away by the browser (".." to the home page).
  expect(searchPath("..")).toBe("/search/..%20");
  expect(searchPath(".")).toBe("/search/.%20");
  expect(new URL(searchPath(".."), "http://x").pathname).toBe("/search/..%20");
  expect(decodeURIComponent(searchPath("शांति").slice(8))).toBe("शांति");
});
