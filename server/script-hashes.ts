// A hash-based Content-Security-Policy for server-rendered pages: a page is
// rendered with a secret token in the nonce attribute of the inline scripts
// React Router and our components emit; sealScripts takes the token out and
// lists those scripts, whose SHA-256 hashes the CSP then allows. A script
// that came in with content (which could not know the token) is not listed,
// so it stays blocked, as with a nonce; unlike a nonce, the page's bytes are
// the same for every visitor, so a cached page is sent (and compressed) once.
// Decision: docs/decisions/036-pages-at-the-machines-limit.md.
import { createHash } from "node:crypto";

export interface SealedPage {
  /** The page with the token taken out. */
  html: string;
  /** The source text of each inline script the page may run, in page order. */
  scripts: string[];
}

/** Scripts that hold data, not code, need no hash. */
const DATA_TYPE = /\btype="(?:application\/(?:ld\+)?json|importmap)"/;

export function sealScripts(html: string, token: string): SealedPage {
  const marker = ` nonce="${token}"`;
  const scripts: string[] = [];
  let out = "";
  let from = 0;
  for (;;) {
    const at = html.indexOf(marker, from);
    if (at === -1) break;
    const open = html.lastIndexOf("<", at);
    const close = html.indexOf(">", at);
    out += html.slice(from, at);
    from = at + marker.length;
    if (!html.startsWith("<script", open)) continue; // a nonce elsewhere (a style) is just dropped
    const tag = html.slice(open, close + 1);
    const end = html.indexOf("</script>", close);
    if (end === -1) continue;
    if (!DATA_TYPE.test(tag)) scripts.push(html.slice(close + 1, end));
  }
  return { html: out + html.slice(from), scripts };
}

export function scriptHash(source: string): string {
  return `'sha256-${createHash("sha256").update(source).digest("base64")}'`;
}
