import { expect, test } from "vitest";
import { DEFERRED_TYPE, deferHydration, START_AFTER_MS } from "./hydration.ts";

// The end of a page as React Router 7.18's <Scripts> renders it (see also the
// integration test that runs the real server), cut down to one route.
const page = [
  "<!DOCTYPE html><html><head><title>t</title></head><body><main>quote</main>",
  '<link rel="modulepreload" href="/assets/entry.client-A.js" nonce="N1"/>',
  '<link rel="modulepreload" href="/assets/root-B.js?v=1&amp;x=2" nonce="N1"/>',
  '<script nonce="N1">window.__reactRouterContext = {};</script>',
  '<script nonce="N1" type="module" async="">import * as route0 from "/assets/root-B.js";\nimport("/assets/entry.client-A.js");</script>',
  '<script nonce="N1">window.__reactRouterContext.streamController.enqueue("[]");</script>',
  "</body></html>",
].join("");

const starterOf = (html: string) =>
  /<script nonce="N1">(\(function start.*)<\/script><\/body>/s.exec(html)?.[1];

test("the router's module script is sent inert and its preloads leave the HTML", () => {
  const html = deferHydration(page);
  expect(html).not.toContain('<link rel="modulepreload"');
  expect(html).not.toContain(' type="module"');
  expect(html).toContain(
    `<script nonce="N1" type="${DEFERRED_TYPE}">import * as route0 from "/assets/root-B.js";`,
  );
  // Everything else is where it was; the starter is the last thing in <body>.
  expect(html).toContain('<script nonce="N1">window.__reactRouterContext = {};</script>');
  expect(html).toContain('enqueue("[]");</script><script nonce="N1">(function start(');
  expect(html.endsWith("</script></body></html>")).toBe(true);
});

test("the starter is handed the preloads (attributes unescaped), the inert type and its time limit", () => {
  const starter = starterOf(deferHydration(page));
  expect(starter).toBeDefined();
  expect(starter).toContain(
    `)("${DEFERRED_TYPE}",["/assets/entry.client-A.js","/assets/root-B.js?v=1&x=2"],${START_AFTER_MS})`,
  );
  // It is the function's own source, so it parses as JavaScript.
  expect(() => new Function(starter ?? "")).not.toThrow();
});

test("markup it does not recognise passes through unchanged", () => {
  const other = page.replace('type="module" async=""', 'type="module"');
  expect(deferHydration(other)).toBe(other);
  const misplaced = page.replace("</body></html>", "").replace("<main>", "</body><main>");
  expect(deferHydration(misplaced)).toBe(misplaced);
  expect(deferHydration("<p>not a page</p>")).toBe("<p>not a page</p>");
});
