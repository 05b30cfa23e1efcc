import { Link } from "react-router";
import type { Labels } from "#app/content/labels.ts";

export function Pagination({
  basePath,
  page,
  hasNext,
  labels,
}: {
  basePath: string;
  page: number;
  hasNext: boolean;
  labels: Labels;
}) {
  if (page === 1 && !hasNext) return null;
  const href = (n: number) => (n === 1 ? basePath : `${basePath}?page=${n}`);
  return (
    <nav className="pagination" aria-label={labels.page}>
      {page > 1 ? (
        <Link rel="prev" to={href(page - 1)}>
          ← {labels.newer}
        </Link>
      ) : (
        <span />
      )}
      <span className="pagination-current">
        {labels.page} {page}
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
