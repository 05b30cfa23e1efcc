import { Fragment } from "react";
import { Link } from "react-router";
import type { SearchSegment } from "#app/content/model.ts";
import type { SearchHitView } from "#app/content/search-page.ts";

/** Text with the matched words in <mark>: plain text nodes, never HTML. */
export function Marked({ segments }: { segments: readonly SearchSegment[] }) {
  return (
    <>
      {segments.map((segment, i) =>
        segment.mark ? <mark key={i}>{segment.text}</mark> : <Fragment key={i}>{segment.text}</Fragment>,
      )}
    </>
  );
}

export function SearchHitCard({ hit }: { hit: SearchHitView }) {
  return (
    <li className="search-hit" lang={hit.lang}>
      <h2 className="search-hit-title">
        <Link to={hit.href} className="post-card-link">
          <Marked segments={hit.titleSegments} />
        </Link>
      </h2>
      {hit.snippet.length > 0 ? (
        <p className="search-hit-snippet">
          <Marked segments={hit.snippet} />
        </p>
      ) : null}
      <p className="search-hit-meta">
        {hit.person ? (
          <>
            <Link to={hit.person.href} className="search-hit-person">
              {hit.person.name}
            </Link>
            {" · "}
          </>
        ) : null}
        <span lang="en">{hit.languageLabel}</span>
        {" · "}
        <time dateTime={hit.isoDateTime}>{hit.postDateTime}</time>
        {hit.matchedAs.length > 0 ? (
          <span className="search-hit-as">
            {" · "}
            <span lang="en">matched as</span>{" "}
            {hit.matchedAs.map((word, i) => (
              <Fragment key={word}>
                {i > 0 ? ", " : null}
                <mark>{word}</mark>
              </Fragment>
            ))}
          </span>
        ) : null}
        {hit.matchedTerms.map((term) => (
          <Fragment key={term.href}>
            {" · "}
            <Link to={term.href} className="search-hit-term">
              <mark>{term.name}</mark>
            </Link>
          </Fragment>
        ))}
      </p>
      {hit.translations.length > 0 ? (
        <p className="search-hit-translations">
          {/* A translation of a hit, beside it (issue 14): the same quote in another language. */}
          <span lang="en">also in</span>{" "}
          {hit.translations.map((translation, i) => (
            <Fragment key={translation.href}>
              {i > 0 ? " · " : null}
              <Link
                to={translation.href}
                lang={translation.lang}
                hrefLang={translation.lang}
                title={translation.title}
              >
                {translation.label}
              </Link>
            </Fragment>
          ))}
        </p>
      ) : null}
    </li>
  );
}

export function SearchResults({ hits, start }: { hits: readonly SearchHitView[]; start: number }) {
  return (
    <ol className="search-results" start={start}>
      {hits.map((hit) => (
        <SearchHitCard key={hit.href} hit={hit} />
      ))}
    </ol>
  );
}
