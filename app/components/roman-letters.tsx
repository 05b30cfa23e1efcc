// The quote in Roman letters (decision 051): a <details> that
// opens without JavaScript. Whether it is open is remembered in the
// browser: a one-line inline script right after it opens it while the page
// is parsed (before the first paint, so the text does not jump in later),
// and on a client-side move to the next post a layout effect does the same
// before that page paints. React does not own `open` (it is no prop here). The script goes through the CSP hashes like the
// others (nonce on the server, server/script-hashes.ts).
import { useLayoutEffect, useRef } from "react";
import { useNonce } from "#app/components/nonce.tsx";
import type { ReadingLabels } from "#app/content/reading-labels.ts";
import type { RomanQuote } from "#app/content/roman-letters.ts";

const KEY = "sukti-roman-letters";

export const ROMAN_LETTERS_SCRIPT = `try{if(localStorage.getItem("${KEY}")==="1")document.currentScript.previousElementSibling.open=true}catch(e){}`;

function remembered(): boolean {
  try {
    return localStorage.getItem(KEY) === "1";
  } catch {
    return false;
  }
}

function remember(open: boolean) {
  try {
    localStorage.setItem(KEY, open ? "1" : "0");
  } catch {
    // Storage off: the toggle still works, it is just not remembered.
  }
}

export function RomanLetters({ roman, labels }: { roman: RomanQuote; labels: ReadingLabels }) {
  const nonce = useNonce();
  const ref = useRef<HTMLDetailsElement>(null);
  useLayoutEffect(() => {
    const details = ref.current;
    if (!details) return;
    // At hydration the script has already opened it, or the reader has toggled it since (a tap
    // starts hydration, decision 032): what the page shows stands, and is remembered. On a
    // client-side move (the root marks the page hydrated after its first commit) the stored
    // choice is applied before the new post paints.
    if (!("hydrated" in document.documentElement.dataset)) {
      if (details.open !== remembered()) remember(details.open);
      return;
    }
    details.open = remembered();
  }, [roman]);
  return (
    <>
      <details className="roman-letters" ref={ref} onToggle={(event) => remember(event.currentTarget.open)}>
        <summary>{labels.romanLetters}</summary>
        <div className="roman-letters-body" lang={roman.lang}>
          <p className="roman-letters-title">{roman.title}</p>
          <p className="roman-letters-text">{roman.text}</p>
        </div>
      </details>
      {/* biome-ignore lint/security/noDangerouslySetInnerHtml: our own constant script, allowed by its hash. */}
      <script nonce={nonce || undefined} dangerouslySetInnerHTML={{ __html: ROMAN_LETTERS_SCRIPT }} />
    </>
  );
}
