// A hash-based Content-Security-Policy for server-rendered pages: a page is
// rendered with a secret token in the nonce attribute of the inline scripts
// React Router and our components emit, and of our inline stylesheet;
// sealScripts takes the token out and lists those scripts and styles, whose
// SHA-256 hashes the CSP then allows. A script or style that came in with
// content (which could not know the token) is not listed, so it stays
// blocked, as with a nonce; unlike a nonce, the page's bytes are the same for
// every visitor, so a cached page is sent (and compressed) once.
// Decisions: docs/decisions/036-pages-at-the-machines-limit.md (scripts),
// 046-styles-allowed-by-hash.md (styles).
import { createHash } from "node:crypto";

export interface SealedPage {
  /** The page with the token taken out. */
  html: string;
  /** The source text of each inline script the page may run, in page order. */
  scripts: string[];
  /** The text of each inline <style> the page may apply, in page order. */
  styles: string[];
}

/** Scripts that hold data, not code, need no hash. */
const DATA_TYPE = /\btype="(?:application\/(?:ld\+)?json|importmap)"/;

export function sealScripts(html: string, token: string): SealedPage {
  const marker = ` nonce="${token}"`;
  const scripts: string[] = [];
  const styles: string[] = [];
  let out = "";
  let from = 0;
  for (;;) {
    const at = html.indexOf(marker, from);
    if (at === -1) break;
    const open = html.lastIndexOf("<", at);
    const close = html.indexOf(">", at);
    out += html.slice(from, at);
    from = at + marker.length;
    const kind = html.startsWith("<script", open)
      ? "script"
      : html.startsWith("<style", open)
        ? "style"
        : null;
    if (kind === null) continue; // a nonce elsewhere is just dropped
    const end = html.indexOf(`</${kind}>`, close);
    if (end === -1) continue;
    if (kind === "style") styles.push(html.slice(close + 1, end));
    else if (!DATA_TYPE.test(html.slice(open, close + 1))) scripts.push(html.slice(close + 1, end));
  }
  return { html: out + html.slice(from), scripts, styles };
}

export function scriptHash(source: string): string {
  return `'sha256-${createHash("sha256").update(source).digest("base64")}'`;
}

/**
 * The CSP source for an inline style. Every page carries the same stylesheet
 * (14 kB), so its hash is made once per process and then found by comparing
 * texts: ~0.5 µs a render, where a SHA-256 of the sheet is ~85 µs (and a Map
 * lookup, which hashes the fresh string, ~80 µs). A few texts are kept (in
 * development the sheet changes as it is edited).
 */
const knownStyles: { text: string; hash: string }[] = [];
export function styleHash(text: string): string {
  for (const known of knownStyles) if (known.text === text) return known.hash;
  const hash = scriptHash(text);
  if (knownStyles.length >= 8) knownStyles.shift();
  knownStyles.push({ text, hash });
  return hash;
}
