import { expect, test } from "vitest";
import { letterCaseRedirect } from "./letter-case.ts";

test("route names, home, tag and category slugs lead to their lower-case address", () => {
  expect(letterCaseRedirect("/ENGLISH/HOME", "")).toBe("/english/home");
  expect(letterCaseRedirect("/English/home", "?page=2")).toBe("/english/home?page=2");
  expect(letterCaseRedirect("/TAGS", "")).toBe("/tags");
  expect(letterCaseRedirect("/tag/Faith", "")).toBe("/tag/faith");
  expect(letterCaseRedirect("/People/Kabir", "?page=2")).toBe("/people/kabir?page=2");
  expect(letterCaseRedirect("/Category/Bhakti", "")).toBe("/category/bhakti");
  expect(letterCaseRedirect("/SAVED/Hindi", "")).toBe("/saved/hindi");
  // A shared collection's code is case-sensitive (decision 050), even when it reads "HOME".
  expect(letterCaseRedirect("/C/AbC_9", "")).toBe("/c/AbC_9");
  expect(letterCaseRedirect("/C/HOME", "")).toBe("/c/HOME");
  // A post's slug is the post route's to match (it may hold capitals); the route name is not.
  expect(letterCaseRedirect("/Hindi/Some-Post", "")).toBe("/hindi/Some-Post");
  // Percent-escapes keep their bytes.
  expect(letterCaseRedirect("/TAG/%E0%A4%AE%E0%A4%A8", "")).toBe("/tag/%E0%A4%AE%E0%A4%A8");
});

test("addresses already in the site's spelling, and others, are left alone", () => {
  expect(letterCaseRedirect("/english/home", "")).toBeNull();
  expect(letterCaseRedirect("/hindi/Some-Post", "")).toBeNull();
  expect(letterCaseRedirect("/tag/%E0%A4%AE%E0%A4%A8", "")).toBeNull();
  expect(letterCaseRedirect("/search/Love", "")).toBeNull();
  expect(letterCaseRedirect("/c/AbC_9", "")).toBeNull();
  expect(letterCaseRedirect("/images/Logo.svg", "")).toBeNull();
  expect(letterCaseRedirect("/share/hindi/v1/X.jpg", "")).toBeNull();
});
