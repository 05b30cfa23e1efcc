// Post HTML keeps no style of its own. style= attributes and <style>
// blocks are dropped at import, before the page's CSP (style-src by hash,
// decision 046) would block them anyway.
import { expect, test } from "vitest";
import { sanitizePostHtml } from "#app/data/sanitize.server.ts";

test("style attributes and <style> blocks are dropped; the text and allowed markup stay", () => {
  const html = [
    "<style>body{background:red}</style>",
    '<p style="color:red" lang="hi">नमस्ते <span style="font-size:99px">जी</span></p>',
    '<blockquote style="display:none">Said</blockquote>',
    '<svg><style>p{color:red}</style></svg><link rel="stylesheet" href="https://evil.example/x.css">',
  ].join("");
  expect(sanitizePostHtml(html)).toBe('<p lang="hi">नमस्ते <span>जी</span></p><blockquote>Said</blockquote>');
});
