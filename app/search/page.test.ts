import { expect, test } from "vitest";
import { cleanSearchText, scriptOf, searchTextFromPath } from "#app/search/page.ts";

test("the text comes percent-decoded from the path, slashes included", () => {
  expect(searchTextFromPath("/search/%E0%A4%AA%E0%A5%8D%E0%A4%B0%E0%A5%87%E0%A4%AE")).toBe("प्रेम");
  expect(searchTextFromPath("/search/a%2Fb%20c")).toBe("a/b c");
  expect(searchTextFromPath("/search/a/b")).toBe("a/b");
  expect(searchTextFromPath("/search/")).toBe("");
});

test("broken percent-encoding gives null, never an exception", () => {
  expect(searchTextFromPath("/search/%E0%A4")).toBeNull();
  expect(searchTextFromPath("/search/%ZZ")).toBeNull();
  expect(searchTextFromPath("/search/%")).toBeNull();
});

test("control and bidi characters become spaces; ZWJ and ZWNJ stay", () => {
  expect(cleanSearchText("a\u0000b\u202Ec\u200Fd\te")).toBe("a b c d e");
  expect(cleanSearchText("क्\u200Dष")).toBe("क्\u200Dष");
});

test("the script of the text picks the spelling hint", () => {
  expect(scriptOf("प्रेम")).toBe("devanagari");
  expect(scriptOf("prem")).toBe("latin");
  expect(scriptOf("🙏 123")).toBe("other");
});
