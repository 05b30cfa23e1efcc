// Addresses that differ from the site's only in letter case:
// /ENGLISH/HOME, /English/home, /TAGS, /tag/Faith answer 301 to the address
// in lower case, not 404 (and not a second copy at 200). Which ones, and how
// much of each is lowered, is each route's `letterCase` in app/route-table.ts:
// route names and tag, category and people slugs are always lower case
// (content/slugs.ts); a post's slug is what its import gave it, so a post
// address keeps its slug here, and the post route leads a wrongly cased slug
// to its post. A shared collection's code (/c/…) is case-sensitive: only its
// route name is lowered.
import { byFirstSegment } from "#app/route-table.ts";

/** Each route name's rule: "lower", "name" (and a `home` slug) or "exact". */
const LETTER_CASE = byFirstSegment((route) => route.letterCase);
/** A capital letter outside a percent-escape. */
const UPPER = /(?<!%[0-9A-F]?)[A-Z]/;

/** The lower-case address for `path` (and its query), or null when it is already the site's spelling. */
export function letterCaseRedirect(path: string, query: string): string | null {
  if (!UPPER.test(path)) return null;
  const segments = path.split("/");
  const first = segments[1] ?? "";
  const name = first.toLowerCase();
  const rule = LETTER_CASE.get(name);
  if (rule === undefined) return null;
  segments[1] = name;
  const second = segments[2];
  if (second !== undefined) {
    if (rule === "lower" || (rule === "name" && second.toLowerCase() === "home")) {
      // Only the ASCII letters: percent-escapes name the same bytes either way.
      segments[2] = second.replace(/%[0-9A-Fa-f]{2}|[A-Z]+/g, (match) =>
        match.startsWith("%") ? match : match.toLowerCase(),
      );
    }
  }
  const lowered = segments.join("/");
  return lowered === path ? null : `${lowered}${query}`;
}
