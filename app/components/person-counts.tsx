import { Fragment } from "react";
import { type Labels, quoteCount } from "#app/content/labels.ts";
import type { languageCounts } from "#app/content/people.ts";

/** A person's quotes per language ("हिंदी 24 quotes · English 3 quotes"), on /people and their own page (decision 066). */
export function PersonCounts({
  counts,
  labels,
}: {
  counts: ReturnType<typeof languageCounts>;
  labels: Labels;
}) {
  return (
    <span className="person-counts">
      {counts.map((entry, i) => (
        <Fragment key={entry.language}>
          {i > 0 ? "\u00a0· " : ""}
          {/* Language, number and word stay on one line. */}
          <span className="person-count">
            <span lang={entry.lang}>{entry.label}</span> {quoteCount(labels, entry.count)}
          </span>
        </Fragment>
      ))}
    </span>
  );
}
