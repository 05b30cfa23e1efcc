import { Link } from "react-router";
import { labelsFor } from "#app/content/labels.ts";
import { type Language, savedPath } from "#app/content/languages.ts";
import { SAVE_LABELS } from "#app/content/save-labels.ts";
import { isSaved, type SavedQuote, toggleSaved, useSavedQuotes } from "#app/content/saved.ts";

export type SaveQuote = Omit<SavedQuote, "savedAt">;

function BookmarkIcon({ filled }: { filled: boolean }) {
  return (
    <svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true" focusable="false">
      <path
        d="M6 3.5h12v17l-6-4.2-6 4.2z"
        fill={filled ? "currentColor" : "none"}
        stroke="currentColor"
        strokeWidth="2"
        strokeLinejoin="round"
      />
    </svg>
  );
}

/**
 * Save / Saved, a toggle (aria-pressed) that keeps the quote in this browser
 * (app/content/saved.ts). It needs JavaScript: before the page hydrates the
 * post page's button holds its place unseen and disabled (no shift, no dead
 * control), and a card shows none.
 */
export function SaveButton({
  quote,
  language,
  place,
  pageLanguage,
}: {
  quote: SaveQuote;
  /** The language it speaks: the page's on a post page, the card's (as its lang says) on a card. */
  language: Language;
  /** A post page's (with its text, and a link to /saved once saved), a card's (an icon), or one in the /saved list. */
  place: "post" | "card" | "list";
  /** On a post page: the language /saved is linked in once the quote is saved. */
  pageLanguage?: Language;
}) {
  const list = useSavedQuotes();
  const labels = SAVE_LABELS[language];
  if (list === null) {
    if (place !== "post") return null;
    return (
      <div className="post-save">
        <button type="button" className="save-button save-waiting" disabled aria-hidden="true" tabIndex={-1}>
          <BookmarkIcon filled={false} />
          {labels.save}
        </button>
      </div>
    );
  }
  const saved = isSaved(list, quote);
  const name = saved ? labels.saved : labels.save;
  const button = (
    <button
      type="button"
      className={place === "card" ? "save-button save-card" : "save-button"}
      aria-pressed={saved}
      aria-label={place === "card" ? name : undefined}
      title={place === "card" ? name : undefined}
      onClick={() => toggleSaved(quote)}
    >
      <BookmarkIcon filled={saved} />
      {place === "card" ? null : name}
    </button>
  );
  if (place !== "post") return button;
  return (
    <div className="post-save">
      {button}
      {saved && pageLanguage ? (
        <Link to={savedPath(pageLanguage)}>{labelsFor(pageLanguage).savedQuotes}</Link>
      ) : null}
    </div>
  );
}

/** What a card or a post view gives the button. */
export function saveQuoteOf(post: SaveQuote): SaveQuote {
  const { language, idNum, slug, title, excerpt, image, cardVersion } = post;
  return { language, idNum, slug, title, excerpt, image, cardVersion };
}
