// The quote in Roman letters (issue 27 §4, decision 051): a <details> that
// opens without JavaScript. Whether it is open is remembered in the
// browser: a one-line inline script right after it opens it while the page
// is parsed (before the first paint, so the text does not jump in later),
// and on a client-side move to the next post a layout effect does the same
// before that page paints. The script goes through the CSP hashes like the
// others (nonce on the server, server/script-hashes.ts).
import { useLayoutEffect, useRef } from "react";
import { useNonce } from "#app/components/nonce.tsx";
import type { Labels } from "#app/content/labels.ts";
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

export function RomanLetters({ roman, labels }: { roman: RomanQuote; labels: Labels }) {
  const nonce = useNonce();
  const ref = useRef<HTMLDetailsElement>(null);
  useLayoutEffect(() => {
    if (ref.current && roman.text !== undefined) ref.current.open = remembered();
  }, [roman.text]);
  return (
    <>
      <details
        className="roman-letters"
        ref={ref}
        onToggle={(event) => {
          try {
            localStorage.setItem(KEY, event.currentTarget.open ? "1" : "0");
          } catch {
            // Storage off: the toggle still works, it is just not remembered.
          }
        }}
      >
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
