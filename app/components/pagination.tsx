import { Link } from "react-router";
import type { Labels } from "#app/content/labels.ts";
import { type Language, withLanguage } from "#app/content/languages.ts";

export function Pagination({
  basePath,
  page,
  pageCount,
  hasNext,
  labels,
  pageHref,
  language = "english",
}: {
  basePath: string;
  /** The address of page n, when it is more than basePath?page=n (a search's filter on results). */
  pageHref?: (n: number) => string;
  page: number;
  /** Known for listings; unknown (undefined) for search. */
  pageCount?: number;
  hasNext: boolean;
  labels: Labels;
  /** On a page of no language: the language its address names, kept page to page (decision 067). */
  language?: Language;
}) {
  if (page === 1 && !hasNext) return null;
  const href = (n: number) =>
    withLanguage(pageHref ? pageHref(n) : n === 1 ? basePath : `${basePath}?page=${n}`, language);
  return (
    <nav className="pagination" aria-label={labels.page}>
      {page > 1 ? (
        <Link rel="prev" to={href(page - 1)}>
          ← {labels.newer}
        </Link>
      ) : (
        <span />
      )}
      <span className="pagination-current" aria-current="page">
        {labels.page} {page}
        {pageCount ? ` / ${pageCount}` : ""}
      </span>
      {hasNext ? (
        <Link rel="next" to={href(page + 1)}>
          {labels.older} →
        </Link>
      ) : (
        <span />
      )}
    </nav>
  );
}
