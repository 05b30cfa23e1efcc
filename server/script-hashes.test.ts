import { createHash } from "node:crypto";
import { expect, test } from "vitest";
import { scriptHash, sealScripts, styleHash } from "./script-hashes.ts";

const TOKEN = "n0123456789abcdef";

test("the render's scripts are listed and their token taken out; anything else is not listed", () => {
  const html = [
    "<html><head>",
    `<script nonce="${TOKEN}">window.a = 1;</script>`,
    `<script type="application/ld+json" nonce="${TOKEN}">{"@type":"Quotation"}</script>`,
    "</head><body><main>",
    // Came in with content: no token, so not listed (and the CSP blocks it).
    '<script>alert("content")</script>',
    `<script nonce="guess">alert("guessed")</script>`,
    "</main>",
    `<script nonce="${TOKEN}" type="text/x-sukti-hydrate">import("/assets/entry.js");</script>`,
    `<script nonce="${TOKEN}">start()</script>`,
    "</body></html>",
  ].join("");
  const sealed = sealScripts(html, TOKEN);
  expect(sealed.scripts).toEqual(["window.a = 1;", 'import("/assets/entry.js");', "start()"]);
  expect(sealed.html).not.toContain(TOKEN);
  expect(sealed.html).toContain('<script nonce="guess">alert("guessed")</script>');
  expect(sealed.html).toContain('<script type="text/x-sukti-hydrate">import(');
  expect(sealed.html).toContain('<script type="application/ld+json">{');
});

test("a hash is the CSP source for the script's exact text", () => {
  const text = 'console.log("नमस्ते")';
  expect(scriptHash(text)).toBe(`'sha256-${createHash("sha256").update(text, "utf8").digest("base64")}'`);
  expect(scriptHash(`${text} `)).not.toBe(scriptHash(text));
});

test("the render's stylesheet is listed and its token taken out; a style that came with content is not", () => {
  const css = 'body{color:#222}.search-page h1 q{quotes:"“" "”"}';
  const html = [
    `<html><head><style id="sukti-css" nonce="${TOKEN}">${css}</style></head><body><main>`,
    '<style>body{background:red}</style><p style="color:red">content</p>',
    `<style nonce="guess">body{background:blue}</style>`,
    `</main><script nonce="${TOKEN}">start()</script></body></html>`,
  ].join("");
  const sealed = sealScripts(html, TOKEN);
  expect(sealed.styles).toEqual([css]);
  expect(sealed.scripts).toEqual(["start()"]);
  expect(sealed.html).not.toContain(TOKEN);
  expect(sealed.html).toContain(`<style id="sukti-css">${css}</style>`);
  expect(sealed.html).toContain('<style nonce="guess">body{background:blue}</style>');
});

test("a style's hash is the CSP source for its exact text, made once", () => {
  const css = "main{padding:1rem}";
  expect(styleHash(css)).toBe(scriptHash(css));
  expect(styleHash(`${css} `)).not.toBe(styleHash(css));
  // The same text (another string, as each render makes) gives the same source.
  expect(styleHash(["main", "{padding:1rem}"].join(""))).toBe(styleHash(css));
});
