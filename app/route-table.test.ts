// The route table (app/route-table.ts) against every list that derives from
// it or must agree with it: React Router's config, the kept query parameters,
// ?lang=, letter case, the search cache and limiter, framing, Vite's expected
// empty chunks and the service worker's example addresses (decision 069).
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { expect, test } from "vitest";
import { canonicalUrl } from "../server/canonical-url.ts";
import { letterCaseRedirect } from "../server/letter-case.ts";
import { SEARCH_REQUEST } from "../server/search-limits.ts";
import { FRAMEABLE_PATH } from "../server/security.ts";
import { RESOURCE_ROUTES } from "../vite.config.ts";
import {
  exampleAddress,
  firstSegment,
  moduleName,
  namesFile,
  ROUTES,
  type RouteEntry,
  routePattern,
} from "./route-table.ts";
import routeConfig from "./routes.ts";

const APP = fileURLToPath(new URL(".", import.meta.url));

/** The route React Router would choose for a path: the table's most specific match (static over dynamic over rest). */
function routeOf(path: string): RouteEntry | undefined {
  const rank = (route: RouteEntry) =>
    route.path
      .split("/")
      .reduce((sum, segment) => sum + (segment === "*" ? 0 : segment.startsWith(":") ? 2 : 3), 0);
  return ROUTES.filter((route) => routePattern(route.path).test(path)).sort((a, b) => rank(b) - rank(a))[0];
}

test("every module exists, every id is unique, and routes.ts hands React Router the whole table", () => {
  for (const route of ROUTES) expect(existsSync(`${APP}${route.module}`), route.module).toBe(true);
  const ids = ROUTES.map((route) => route.id ?? route.module.replace(/\.[^.]+$/, ""));
  expect(new Set(ids).size).toBe(ids.length);
  const flat = routeConfig.flatMap((entry) => [entry, ...(entry.children ?? [])]);
  for (const route of ROUTES) {
    const found = flat.find((entry) => entry.file === route.module && (entry.path ?? "") === route.path);
    expect(found, route.path).toBeDefined();
    expect(found?.id).toBe(route.id);
  }
  const layout = routeConfig.find((entry) => entry.file === "routes/site-head.tsx");
  expect(layout?.children?.length).toBe(ROUTES.filter((route) => route.kind !== "resource").length);
  expect(existsSync(`${APP}routes/site-head.tsx`)).toBe(true);
});

test("the routes under one first segment agree on letter case and language", () => {
  for (const route of ROUTES) {
    const others = ROUTES.filter((other) => firstSegment(other.path) === firstSegment(route.path));
    for (const other of others) {
      expect(other.letterCase, `${other.path} beside ${route.path}`).toBe(route.letterCase);
      if (!namesFile(route.path) && !namesFile(other.path))
        expect(other.language, `${other.path} beside ${route.path}`).toBe(route.language);
    }
  }
});

test("each route keeps exactly the query parameters the table says (canonical-url.ts)", () => {
  for (const route of ROUTES) {
    for (const rule of route.keeps ?? []) {
      const at = exampleAddress(rule.at ?? route.path);
      const query = rule.names.map((name) => `${name}=2`).join("&");
      expect(canonicalUrl(`${at}?utm_source=x&${query}`).url, at).toBe(`${at}?${query}`);
      if (rule.anyCase)
        expect(canonicalUrl(`${at.toUpperCase()}?${query}`).url).toBe(`${at.toUpperCase()}?${query}`);
    }
    // An address of the route no rule names drops every parameter a route reads.
    const address = exampleAddress(route.path);
    const rule = route.keeps?.find((kept) => routePattern(kept.at ?? route.path).test(address));
    const names = ["page", "q", "download", "url", "format", "language"].filter(
      (name) => !rule?.names.includes(name),
    );
    const url = canonicalUrl(`${address}?${names.map((name) => `${name}=2`).join("&")}`).url;
    expect(url.replace(/\?.*/, ""), route.path).toBe(address);
    for (const name of names) expect(url, `${route.path} ?${name}`).not.toContain(`${name}=`);
  }
});

test("paginated routes keep ?page= and page 1 is the bare address", () => {
  const paginated = ROUTES.flatMap((route) =>
    (route.keeps ?? [])
      .filter((rule) => rule.names.includes("page"))
      .map((rule) => exampleAddress(rule.at ?? route.path)),
  );
  expect(paginated).toEqual(
    expect.arrayContaining(["/english/home", "/tag/x", "/category/x", "/people/x", "/search/x/y/z"]),
  );
  for (const at of paginated) {
    expect(canonicalUrl(`${at}?page=3`).url).toBe(`${at}?page=3`);
    expect(canonicalUrl(`${at}?page=1`).url).toBe(at);
  }
});

test("each example address is its route's; ?lang= survives on pages of no language only; search cache and limiter, framing", () => {
  for (const route of ROUTES) {
    const address = exampleAddress(route.path);
    // The address's own route (people/x/feed.xml is the feed's, not people/:slug's): so
    // the service worker's EVERY_ROUTE asks /__manifest for every screen (sw.ts).
    expect(routeOf(address)?.path, address).toBe(route.path);
    const language = namesFile(route.path) ? "own" : route.language;
    expect(canonicalUrl(`${address}?lang=hi`).url.endsWith("lang=hi"), `${address} ?lang=`).toBe(
      language === "param",
    );
    expect(canonicalUrl(address).search, `${address} search cache`).toBe(route.searchCache === true);
    expect(SEARCH_REQUEST.test(address), `${address} search limiter`).toBe(route.gate === "search");
    expect(FRAMEABLE_PATH.test(address), `${address} frameable`).toBe(route.frameable === true);
  }
});

test("letter case: every route name the table lowers answers 301, and only those (letter-case.ts)", () => {
  for (const route of ROUTES.filter((entry) => entry.path !== "" && entry.path !== "*")) {
    const [name = "", second, ...rest] = exampleAddress(route.path)
      .replace(/\/x(?=\/|$)/g, "/Slug")
      .slice(1)
      .split("/");
    const tail = rest.map((part) => `/${part}`).join("");
    const upper = `/${name.toUpperCase()}${second === undefined ? "" : `/${second}`}${tail}`;
    const kept = `/${name}${second === undefined ? "" : `/${second}`}${tail}`;
    const expected = {
      lower: `/${name}${second === undefined ? "" : `/${second.toLowerCase()}`}${tail}`,
      name: kept,
      exact: kept,
    };
    expect(letterCaseRedirect(upper, ""), upper).toBe(route.letterCase ? expected[route.letterCase] : null);
    // A `home` slug is lowered too, but a post's or a collection's is its own.
    if (route.letterCase && second !== undefined)
      expect(letterCaseRedirect(`/${name.toUpperCase()}/HOME`, "")).toBe(
        `/${name}/${route.letterCase === "exact" ? "HOME" : "home"}`,
      );
  }
});

test("Vite expects an empty client chunk of every resource route, never of a screen's name", () => {
  const screens = new Set(
    ROUTES.filter((route) => route.kind === "page").map((route) => moduleName(route.module)),
  );
  for (const route of ROUTES) {
    const name = moduleName(route.module);
    expect(RESOURCE_ROUTES.has(name), route.module).toBe(route.kind !== "page" && !screens.has(name));
  }
});
