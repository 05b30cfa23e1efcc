import { useState } from "react";
import { data, Link, redirect } from "react-router";
import { QuoteCardImage } from "#app/components/post-card.tsx";
import { SaveButton } from "#app/components/save-button.tsx";
import { copyToClipboard } from "#app/components/share-actions.tsx";
import { collectionPath } from "#app/content/collection-code.ts";
import { quoteCount } from "#app/content/labels.ts";
import { LANG_TAG, type Language, postPath, savedPath } from "#app/content/languages.ts";
import { type ReadingLabels, readingLabelsFor } from "#app/content/reading-labels.ts";
import { useSavedQuotes } from "#app/content/saved.ts";
import { type SavedLabels, savedLabelsFor } from "#app/content/saved-labels.ts";
import { originOf, pageMeta } from "#app/content/seo.ts";
import { siteOf } from "#app/site.ts";
import type { Route } from "./+types/saved";

/**
 * /saved, /saved/hindi, /saved/marathi: the quotes saved in this browser
 * (decision 050). The server sends the same frame to everyone, in the
 * address's language; the list is read from localStorage once the page has
 * hydrated, so it shows offline too.
 */
export function loader({ params }: Route.LoaderArgs): { pageLanguage: Language } {
  const language = params.language;
  if (language === undefined) return { pageLanguage: "english" };
  if (language === "english") throw redirect("/saved", 301);
  if (language === "hindi" || language === "marathi") return { pageLanguage: language };
  throw data(null, { status: 404 });
}

export const meta: Route.MetaFunction = ({ loaderData, matches }) => {
  if (!loaderData) return [{ title: `Page not found · ${siteOf(matches).name}` }];
  const labels = { ...readingLabelsFor(loaderData.pageLanguage), ...savedLabelsFor(loaderData.pageLanguage) };
  return [
    ...pageMeta({
      siteName: siteOf(matches).name,
      origin: originOf(matches),
      title: `${labels.savedQuotes} · ${siteOf(matches).name}`,
      description: labels.savedOnlyHere,
      path: savedPath(loaderData.pageLanguage),
      language: loaderData.pageLanguage,
    }),
    // Each reader's own list: nothing for a search engine.
    { name: "robots", content: "noindex" },
  ];
};

export default function Saved({ loaderData }: Route.ComponentProps) {
  const language = loaderData.pageLanguage;
  const labels = { ...readingLabelsFor(language), ...savedLabelsFor(language) };
  const list = useSavedQuotes();
  return (
    <section className="saved-page" lang={LANG_TAG[language]}>
      <h1>{labels.savedQuotes}</h1>
      <p className="saved-note">{labels.savedOnlyHere}</p>
      <noscript>
        <p className="empty">{labels.savedNeedsScript}</p>
      </noscript>
      {list === null ? null : list.length === 0 ? (
        <p className="empty">{labels.savedEmpty}</p>
      ) : (
        <>
          <p className="count">{quoteCount(readingLabelsFor(language), list.length)}</p>
          <ul className="saved-list">
            {list.map((quote) => (
              <li
                key={`${quote.language}:${quote.idNum}`}
                className="saved-item"
                lang={LANG_TAG[quote.language]}
              >
                {quote.cardVersion ? (
                  <QuoteCardImage
                    post={{ language: quote.language, slug: quote.slug, cardVersion: quote.cardVersion }}
                    eager={false}
                    sizes="5rem"
                    className="saved-card"
                    alt=""
                  />
                ) : (
                  <img src={quote.image} alt="" width={80} height={80} loading="lazy" decoding="async" />
                )}
                <div>
                  <h2>
                    <Link to={postPath(quote.language, quote.slug)}>{quote.title}</Link>
                  </h2>
                  {quote.excerpt ? <p>{quote.excerpt}</p> : null}
                </div>
                <SaveButton quote={quote} language={quote.language} place="list" />
              </li>
            ))}
          </ul>
          <ShareCollection path={collectionPath(list)} labels={labels} />
        </>
      )}
    </section>
  );
}

/** The shared collection's address, to open, copy or send (only rendered in the browser). */
function ShareCollection({ path, labels }: { path: string; labels: ReadingLabels & SavedLabels }) {
  const [status, setStatus] = useState<"idle" | "copied" | "failed">("idle");
  const url = new URL(path, window.location.href).href;
  return (
    <section className="saved-share" aria-labelledby="saved-share-title">
      <h2 id="saved-share-title">{labels.shareCollection}</h2>
      <p className="saved-note">{labels.shareCollectionNote}</p>
      <p className="saved-share-link">
        <a href={url} className="saved-collection-link">
          {url}
        </a>
        <button
          type="button"
          className="share-button"
          onClick={async () => setStatus((await copyToClipboard(url)) ? "copied" : "failed")}
        >
          {labels.copyLink}
        </button>
      </p>
      <p className="share-status" role="status" aria-live="polite">
        {status === "copied" ? labels.copied : status === "failed" ? labels.copyFailed : ""}
      </p>
    </section>
  );
}
