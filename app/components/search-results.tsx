import { Fragment } from "react";
import { Link } from "react-router";
import type { SearchSegment } from "#app/content/model.ts";
import type { SearchLabels } from "#app/search/labels.ts";
import type { SearchHitView } from "#app/search/page.ts";

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

/**
 * How a hit matched, on a line of its own (decision 065): the form it matched as
 * (a romanised guess, another language's word) and the tags or categories
 * that hold the words, each after its label, so neither reads as the other.
 */
function MatchLine({ hit, labels }: { hit: SearchHitView; labels: SearchLabels }) {
  const groups = [
    { kind: "tag", label: labels.tags },
    { kind: "category", label: labels.categories },
  ]
    .map(({ kind, label }) => ({ label, terms: hit.matchedTerms.filter((term) => term.kind === kind) }))
    .filter((group) => group.terms.length > 0);
  if (hit.matchedAs.length === 0 && groups.length === 0) return null;
  return (
    <p className="search-hit-match">
      {hit.matchedAs.length > 0 ? (
        <span className="search-hit-as">
          <span className="search-hit-label" lang={labels.lang}>
            {labels.matchedAs}:
          </span>{" "}
          {hit.matchedAs.map((word, i) => (
            <Fragment key={word}>
              {i > 0 ? ", " : null}
              <mark>{word}</mark>
            </Fragment>
          ))}
        </span>
      ) : null}
      {groups.map((group) => (
        <span key={group.label} className="search-hit-terms">
          <span className="search-hit-label" lang={labels.lang}>
            {group.label}:
          </span>{" "}
          {group.terms.map((term, i) => (
            <Fragment key={term.href}>
              {i > 0 ? ", " : null}
              <Link to={term.href} className="search-hit-term">
                <mark>{term.name}</mark>
              </Link>
            </Fragment>
          ))}
        </span>
      ))}
    </p>
  );
}

export function SearchHitCard({ hit, labels }: { hit: SearchHitView; labels: SearchLabels }) {
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
      </p>
      <MatchLine hit={hit} labels={labels} />
      {hit.translations.length > 0 ? (
        <p className="search-hit-translations">
          {/* A translation of a hit, beside it (decision 039): the same quote in another language. */}
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

export function SearchResults({
  hits,
  start,
  labels,
}: {
  hits: readonly SearchHitView[];
  start: number;
  labels: SearchLabels;
}) {
  return (
    <ol className="search-results" start={start}>
      {hits.map((hit) => (
        <SearchHitCard key={hit.href} hit={hit} labels={labels} />
      ))}
    </ol>
  );
}
