import { type FormEvent, useId, useState } from "react";
import { SEARCH_PLACEHOLDER } from "#app/content/frame-font.ts";
import type { Labels } from "#app/content/labels.ts";
import { LANG_PARAM, LANG_TAG, type Language, withLanguage } from "#app/content/languages.ts";
import { checkSearchText, SEARCH_MAX_LENGTH, searchPath } from "#app/content/search-text.ts";

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

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const raw = new FormData(event.currentTarget).get("q");
    const result = checkSearchText(typeof raw === "string" ? raw : "");
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
        type="search"
        name="q"
        defaultValue={defaultValue}
        placeholder={SEARCH_PLACEHOLDER}
        autoComplete="off"
        enterKeyHint="search"
        aria-describedby={message ? messageId : undefined}
        aria-invalid={message ? true : undefined}
        onChange={() => setMessage(null)}
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
