import { type FormEvent, useId, useRef, useState } from "react";
import { SEARCH_PLACEHOLDER } from "#app/content/frame-font.ts";
import type { Labels } from "#app/content/labels.ts";
import { LANG_PARAM, LANG_TAG, type Language, withLanguage } from "#app/content/languages.ts";
import { checkSearchText, SEARCH_MAX_LENGTH, searchPath } from "#app/search/text.ts";

/** Whether a pointer is down (undefined: not watched yet, until a message first shows). */
let pressing: boolean | undefined;

function trackPresses() {
  if (pressing !== undefined) return;
  pressing = false;
  for (const type of ["pointerdown", "pointerup"])
    addEventListener(type, () => (pressing = type === "pointerdown"), true);
}

/**
 * SPEC §2: Enter or the magnifier loads /search/{text} as a whole new page.
 * Without JavaScript the form GETs /search?q=…, which the server redirects.
 */
export function SearchBox({
  defaultValue = "",
  labels,
  language = "english",
}: {
  defaultValue?: string;
  labels: Labels;
  /** Results come in the page's language (?lang=, decision 067). */
  language?: Language;
}) {
  const [message, setMessage] = useState<string | null>(null);
  const id = useId();
  const messageId = `${id}-message`;
  const field = useRef<HTMLInputElement>(null);

  // The message goes when the field loses focus (decision 065); after the press that took it is over,
  // so that nothing moves under the pointer between press and release (the click still lands).
  function onBlur() {
    if (!message) return;
    // Not when the field has it again (a second press of the magnifier).
    const hide = () => setTimeout(() => document.activeElement === field.current || setMessage(null));
    if (pressing) addEventListener("pointerup", hide, { once: true, capture: true });
    else hide();
  }

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const raw = new FormData(event.currentTarget).get("q");
    const result = checkSearchText(typeof raw === "string" ? raw : "");
    // The field has the focus (the magnifier may have taken it): the message stays until it leaves.
    if (result.kind !== "ok") {
      field.current?.focus();
      trackPresses();
    }
    if (result.kind === "empty") {
      // Empty, or spaces only: said in the page's language (not the browser's "Please fill out this field").
      setMessage(labels.searchEmpty);
      return;
    }
    if (result.kind === "too-long") {
      setMessage(
        labels.searchTooLong
          .replace("{max}", String(SEARCH_MAX_LENGTH))
          .replace("{length}", String(result.length)),
      );
      return;
    }
    setMessage(null);
    window.location.assign(withLanguage(searchPath(result.text), language));
  }

  return (
    // biome-ignore lint/a11y/useSemanticElements: the <search> element has no role in browsers before 2023; role="search" on the form works in all.
    <form role="search" className="search-box" action="/search" method="get" onSubmit={onSubmit}>
      <label htmlFor={id} className="visually-hidden">
        {labels.searchLabel}
      </label>
      <input
        id={id}
        ref={field}
        type="search"
        name="q"
        defaultValue={defaultValue}
        placeholder={SEARCH_PLACEHOLDER}
        autoComplete="off"
        enterKeyHint="search"
        aria-describedby={message ? messageId : undefined}
        aria-invalid={message ? true : undefined}
        onChange={() => setMessage(null)}
        onBlur={onBlur}
      />
      {language === "english" ? null : <input type="hidden" name={LANG_PARAM} value={LANG_TAG[language]} />}
      <button type="submit" className="search-button" aria-label={labels.searchButton}>
        <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false">
          <circle cx="10.5" cy="10.5" r="6.5" fill="none" stroke="currentColor" strokeWidth="2.2" />
          <path d="M15.5 15.5 21 21" stroke="currentColor" strokeWidth="2.4" strokeLinecap="round" />
        </svg>
      </button>
      {message ? (
        <p id={messageId} role="alert" className="search-message">
          {message}
        </p>
      ) : null}
    </form>
  );
}
