export const SEARCH_MAX_LENGTH = 100;

export type SearchTextResult =
  | { kind: "empty" }
  | { kind: "too-long"; text: string; length: number }
  | { kind: "ok"; text: string };

/** Length in user-perceived characters would split conjuncts oddly; code points are what we cap. */
export function codePointLength(text: string): number {
  return Array.from(text).length;
}

/** Rules for the search box: trimmed; empty does nothing; over 100 code points is refused. */
export function checkSearchText(raw: string): SearchTextResult {
  const text = raw.normalize("NFC").trim();
  if (text === "") return { kind: "empty" };
  const length = codePointLength(text);
  if (length > SEARCH_MAX_LENGTH) return { kind: "too-long", text, length };
  return { kind: "ok", text };
}

/** The server caps what arrives in a URL: cut to the limit, and the page says so. */
export function capSearchText(raw: string): { text: string; cut: boolean } {
  const text = raw.normalize("NFC").trim();
  const points = Array.from(text);
  if (points.length <= SEARCH_MAX_LENGTH) return { text, cut: false };
  return { text: points.slice(0, SEARCH_MAX_LENGTH).join("").trim(), cut: true };
}

export function searchPath(text: string): string {
  // "." and ".." would be dot segments, which browsers resolve away (to / for
  // ".."), encoded or not; a trailing space, trimmed by the server, keeps them.
  const segment = encodeURIComponent(text);
  return `/search/${/^\.{1,2}$/.test(text) ? `${segment}%20` : segment}`;
}
