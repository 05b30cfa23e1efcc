// Hydration after the first view: React Router's <Scripts> asks for all of a
// page's JavaScript (React DOM and the router, ~115 kB gzip) at high priority
// while the HTML is still being read, so on a slow phone link it shares the
// line with the post image and the fonts that make the first view. The page
// works without JavaScript (links, search form), so we let that JavaScript
// wait: the router's module script is sent inert, and a small script starts it
// at the window's load event, at the visitor's first tap or key press, or
// after START_AFTER_MS, whichever comes first.
// Decision: docs/decisions/032-first-view-before-javascript.md.
//
// Hydration still matches: React 19 treats <link rel="modulepreload"> as a
// hoistable it re-creates in <head> when missing, matches an inline <script>
// without checking its type, and leaves extra nodes at the end of <body> alone.
// If a future React Router emits other markup, nothing matches here and the
// page is sent as React Router rendered it (an integration test then fails).

import { decodeEntities } from "#app/content/html-text.ts";

export const DEFERRED_TYPE = "text/x-sukti-hydrate";
/** The longest hydration waits for the load event (a slow remote image, say). */
export const START_AFTER_MS = 3000;

const MODULE_SCRIPT = /<script([^>]*) type="module" async="">/;
const MODULE_PRELOAD = /<link rel="modulepreload"[^>]*>/g;
const NONCE = / nonce="([^"]*)"/;
const HREF = / href="([^"]*)"/;

/**
 * Runs in the browser (sent as its source text, as React Router sends its
 * scroll restoration script). Once: asks for the page's modules together, then
 * copies the inert script into a live module script, so React Router boots as
 * it would have. The copy runs only if the page's CSP lists its hash, which
 * the server wrote for the script it rendered (script-hashes.ts); the inert
 * script is the last one before this one, after any content.
 */
function start(type: string, preloads: string[], afterMs: number) {
  // React Router's inline script has already put a reloaded or revisited page
  // where the visitor left it, and does not move it again when it hydrates.
  // The browser's own restoration would move it again at the load event,
  // undoing any scrolling since; React Router switches that off when it
  // hydrates, which now comes after the event, so it is switched off here.
  history.scrollRestoration = "manual";
  let started = false;
  const go = () => {
    if (started) return;
    started = true;
    const inert = [...document.querySelectorAll<HTMLScriptElement>(`script[type="${type}"]`)].pop();
    if (!inert) return;
    for (const href of preloads) {
      const link = document.createElement("link");
      link.rel = "modulepreload";
      link.href = href;
      document.head.append(link);
    }
    const live = document.createElement("script");
    live.type = "module";
    live.textContent = inert.textContent;
    document.head.append(live);
  };
  if (document.readyState === "complete") return go();
  addEventListener("load", go, { once: true });
  for (const event of ["pointerdown", "keydown", "touchstart"])
    addEventListener(event, go, { once: true, passive: true, capture: true });
  setTimeout(go, afterMs);
}

/** Rewrites a rendered page so its JavaScript loads after the first view. */
export function deferHydration(html: string): string {
  const script = MODULE_SCRIPT.exec(html);
  const end = html.lastIndexOf("</body>");
  if (!script || end < script.index) return html;
  const nonce = NONCE.exec(script[1] ?? "")?.[1];
  const starterTag = nonce === undefined ? "<script>" : `<script nonce="${nonce}">`;
  const before = html.slice(0, script.index);
  const preloads = (before.match(MODULE_PRELOAD) ?? [])
    .map((link) => HREF.exec(link)?.[1])
    .filter((href): href is string => href !== undefined)
    .map(decodeEntities);
  const args = JSON.stringify([DEFERRED_TYPE, preloads, START_AFTER_MS])
    .slice(1, -1)
    .replace(/</g, "\\u003c");
  return (
    before.replace(MODULE_PRELOAD, "") +
    `<script${script[1]} type="${DEFERRED_TYPE}">` +
    html.slice(script.index + script[0].length, end) +
    `${starterTag}(${start.toString()})(${args})</script>` +
    html.slice(end)
  );
}
