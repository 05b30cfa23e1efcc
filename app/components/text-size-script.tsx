// The text size step, put on <html data-text-size> by a tiny script in the
// <head> before the first paint (decision 051); the buttons are
// in text-size.tsx, so pages without them load none of their code. The
// script is our own constant text, allowed by its hash like the others
// (nonce on the server, server/script-hashes.ts).
import { useNonce } from "#app/components/nonce.tsx";

export const TEXT_SIZE_KEY = "sukti-text-size";
/** Steps 0…5; the stylesheet gives each a scale (0.875, 1, 1.15, 1.3, 1.5, 1.75). */
export const TEXT_SIZE_STEPS = 6;
export const DEFAULT_TEXT_SIZE = 1;

export const TEXT_SIZE_SCRIPT = `var s;try{s=localStorage.getItem("${TEXT_SIZE_KEY}")}catch(e){}document.documentElement.dataset.textSize=/^[0-${TEXT_SIZE_STEPS - 1}]$/.test(s)?s:"${DEFAULT_TEXT_SIZE}"`;

/** The pre-paint script, for the <head> of every page. */
export function TextSizeScript() {
  const nonce = useNonce();
  // biome-ignore lint/security/noDangerouslySetInnerHtml: our own constant script, allowed by its hash.
  return <script nonce={nonce || undefined} dangerouslySetInnerHTML={{ __html: TEXT_SIZE_SCRIPT }} />;
}
