import { expect, test } from "vitest";
import { DEFERRED_TYPE, deferHydration } from "./hydration.ts";

// The markup React Router 7's <Scripts> emits, cut down to one route.
const page = [
  "<!DOCTYPE html><html><head><title>t</title></head><body><main>quote</main>",
  '<link rel="modulepreload" href="/assets/entry.client-A.js" nonce="N1"/>',
  '<link rel="modulepreload" href="/assets/root-B.js" nonce="N1"/>',
  '<script nonce="N1">window.__reactRouterContext = {};</script>',
  '<script nonce="N1" type="module" async="">import * as route0 from "/assets/root-B.js";\nimport("/assets/entry.client-A.js");</script>',
  '<script nonce="N1">window.__reactRouterContext.streamController.enqueue("[]");</script>',
  "</body></html>",
].join("");

test("the router's module script is sent inert and its preloads leave the HTML", () => {
  const html = deferHydration(page);
  expect(html).not.toContain('<link rel="modulepreload"');
  expect(html).not.toContain(' type="module"');
  expect(html).toContain(
    `<script nonce="N1" type="${DEFERRED_TYPE}">import * as route0 from "/assets/root-B.js";`,
  );
  // Everything else is where it was; the starter is the last thing in <body>.
  expect(html).toContain('<script nonce="N1">window.__reactRouterContext = {};</script>');
  expect(html).toMatch(
    /enqueue\("\[\]"\);<\/script><script nonce="N1">\(\(\)=>\{.*\}\)\(\)<\/script><\/body><\/html>$/,
  );
});

test("the starter asks for the same modules the preloads named, then runs the script at load", () => {
  const html = deferHydration(page);
  const starter = /<script nonce="N1">(\(\(\)=>.*)<\/script><\/body>/.exec(html)?.[1] ?? "";
  expect(starter).toContain('["/assets/entry.client-A.js","/assets/root-B.js"]');
  expect(starter).toContain('addEventListener("load"');
  expect(starter).toContain('m.type="module"');
  expect(starter).toContain("m.nonce=d.nonce");
});

test("markup it does not recognise passes through unchanged", () => {
  const other = page.replace('type="module" async=""', 'type="module"');
  expect(deferHydration(other)).toBe(other);
  expect(deferHydration("<p>not a page</p>")).toBe("<p>not a page</p>");
});
