import { createHash } from "node:crypto";
import { expect, test } from "vitest";
import { scriptHash, sealScripts } from "./script-hashes.ts";

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
