// The site's one stylesheet, inlined into every page's <head>: a separate
// <link rel="stylesheet"> is a render-blocking round trip that held first
// paint (and the post image's LCP) back by ~0.5 s on Lighthouse's mobile
// profile. The CSS text lives only in the server bundle; in the browser the
// component reads it back from the element the server sent, so hydration sees
// the same text and the client bundle carries none of it. On the server it
// carries the render's token, so the CSP allows it by its hash and allows no
// other inline style (server/script-hashes.ts, decision 046); the token is
// taken out before the page is sent, and the browser renders no nonce.
import { useNonce } from "#app/components/nonce.tsx";

const ID = "sukti-css";

const css: string = import.meta.env.SSR
  ? (await import("#app/styles/app.css?inline")).default
  : (document.getElementById(ID)?.textContent ?? "");

export function InlineStyles() {
  const nonce = useNonce();
  // biome-ignore lint/security/noDangerouslySetInnerHtml: our own stylesheet, built from app/styles/app.css (never content).
  return <style id={ID} nonce={nonce || undefined} dangerouslySetInnerHTML={{ __html: css }} />;
}
