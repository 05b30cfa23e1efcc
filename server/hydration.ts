// Hydration after the first view: React Router's <Scripts> asks for all of a
// page's JavaScript (React DOM and the router, ~115 kB gzip) at high priority
// while the HTML is still being read, so on a slow phone link it shares the
// line with the post image and the fonts that make the first view. The page
// works without JavaScript (links, search form), so we let that JavaScript
// wait: the router's module script is sent inert, and a small script starts it
// at the window's load event, or at the visitor's first tap or key press if
// that comes sooner. Decision: docs/decisions/032-first-view-before-javascript.md.
//
// Hydration still matches: React 19 treats <link rel="modulepreload"> as a
// hoistable it re-creates in <head> when missing, matches an inline <script>
// without checking its type, and leaves extra nodes at the end of <body> alone.
// If a future React Router emits other markup, nothing matches here and the
// page simply hydrates at once, as before (tests/e2e/frame.test.ts checks both).

export const DEFERRED_TYPE = "text/x-sukti-hydrate";

const MODULE_SCRIPT = /<script([^>]*) type="module" async="">/;
const MODULE_PRELOAD = /<link rel="modulepreload"[^>]*>/g;
const NONCE = / nonce="([^"]*)"/;
const HREF = / href="([^"]*)"/;

// Runs once: asks for all the page's modules together (the preloads we took
// out of the HTML), then copies the inert script into a live module script
// with the same nonce (the CSP allows it) so React Router boots as it would.
function starter(preloads: string[]): string {
  const hrefs = JSON.stringify(preloads).replace(/</g, "\\u003c");
  return `(()=>{let s=0;const go=()=>{if(s)return;s=1;const d=document.querySelector('script[type="${DEFERRED_TYPE}"]');if(!d)return;for(const h of ${hrefs}){const l=document.createElement("link");l.rel="modulepreload";l.href=h;document.head.append(l)}const m=document.createElement("script");m.type="module";m.nonce=d.nonce;m.textContent=d.textContent;document.head.append(m)};if(document.readyState==="complete")go();else{addEventListener("load",go,{once:true});for(const t of["pointerdown","keydown","touchstart"])addEventListener(t,go,{once:true,passive:true,capture:true})}})()`;
}

/** Rewrites a rendered page so its JavaScript loads after the first view. */
export function deferHydration(html: string): string {
  const script = MODULE_SCRIPT.exec(html);
  const end = html.lastIndexOf("</body>");
  if (!script || end === -1) return html;
  const nonce = NONCE.exec(script[1] ?? "")?.[1];
  const starterTag = nonce === undefined ? `<script>` : `<script nonce="${nonce}">`;
  const before = html.slice(0, script.index);
  const preloads = (before.match(MODULE_PRELOAD) ?? []).map((link) => HREF.exec(link)?.[1] ?? "");
  return (
    before.replace(MODULE_PRELOAD, "") +
    `<script${script[1]} type="${DEFERRED_TYPE}">` +
    html.slice(script.index + script[0].length, end) +
    `${starterTag}${starter(preloads.filter(Boolean))}</script>` +
    html.slice(end)
  );
}
