// Hits (docs/search.md): the posts of a result page with their matched
// words marked (highlight.ts) in the title and a snippet of the text, the
// tags and categories that matched, and the words a hit matched through.
import { cutHtml } from "#app/content/html-cut.ts";
import { htmlToPlainText } from "#app/content/html-text.ts";
import { LANGUAGES } from "#app/content/languages.ts";
import type { SearchHit, Term, Translation } from "#app/content/model.ts";
import { BODIES_PER_READ, READ_BOUNDS } from "#app/data/read-bounds.ts";
import type { SearchBackend } from "#app/search/backend.ts";
import type { TermExpansions } from "#app/search/expand.ts";
import { foldedAlone, foldText } from "#app/search/fold.ts";
import {
  highlight,
  type Segment,
  snippet,
  snippetOfStart,
  snippetOfStartWithoutMatch,
  type WordTest,
  wordTest,
} from "#app/search/highlight.ts";
import type { QueryTerm } from "#app/search/parse.ts";

/** Whether a folded word of a document is one the query matched. */
export function wordMatcher(
  terms: readonly QueryTerm[],
  expansions: readonly TermExpansions[],
): (foldedWord: string) => boolean {
  const exact = new Set<string>();
  for (const { prefix, infix, romanExact, romanPrefix, concepts } of expansions) {
    for (const word of [...(prefix ?? []), ...infix, ...romanExact, ...romanPrefix, ...concepts])
      exact.add(word);
  }
  for (const term of terms) exact.add(term.word);
  const prefixes = terms.filter((term, i) => term.prefix && !expansions[i]?.prefix).map((term) => term.word);
  return (word) => exact.has(word) || prefixes.some((prefix) => word.startsWith(prefix));
}

/**
 * A hit's snippet from the first READ_BOUNDS.snippetStart + 1 characters of
 * its text (`start`, or the whole text when `whole`): null when a match there
 * does not decide it and more of the text is needed. A long post's match is
 * usually near its start (a 60 kB text cost ~5 ms a hit made into text and
 * words whole, and more to read); snippetOfStart gives the snippet the whole
 * text gives. The whole text is cut at READ_BOUNDS.snippetSource, never
 * megabytes of it.
 */
export function bodySnippet(start: string, excerpt: string, test: WordTest, whole: boolean) {
  if (start.length > READ_BOUNDS.snippetStart) {
    const early = snippetOfStart(htmlToPlainText(cutHtml(start, READ_BOUNDS.snippetStart).html), test);
    if (early !== null) return early;
    if (!whole) return null;
  }
  const inText = snippet(htmlToPlainText(cutHtml(start, READ_BOUNDS.snippetSource).html), test);
  if (inText.some((segment) => segment.mark) || excerpt === "") return inText;
  const inExcerpt = snippet(excerpt, test);
  return inExcerpt.some((segment) => segment.mark) ? inExcerpt : inText;
}

/**
 * The snippet of a text known to hold no match (its indexed words pass no
 * test: noMatchIn), from its first READ_BOUNDS.snippetStart + 1 characters:
 * what bodySnippet gives for the whole text (its start, or the excerpt's
 * match). Null when the start is too short to tell.
 */
export function snippetWithoutMatch(start: string, excerpt: string, test: WordTest) {
  const inText = snippetOfStartWithoutMatch(
    htmlToPlainText(cutHtml(start, READ_BOUNDS.snippetStart).html),
    test,
  );
  if (inText === null || excerpt === "") return inText;
  const inExcerpt = snippet(excerpt, test);
  return inExcerpt.some((segment) => segment.mark) ? inExcerpt : inText;
}

/**
 * Of `ids`, the posts whose indexed words (documentBodies: the folded words
 * of their text, every word the snippet's test can mark, and some backends
 * the title and tags too) pass none of `isMatch`: their text holds no match,
 * and their snippet needs only its start. A text cut at its read bound may
 * hold one past it: not among them.
 */
async function noMatchIn(
  backend: SearchBackend,
  ids: readonly number[],
  isMatch: (foldedWord: string) => boolean,
): Promise<Set<number>> {
  const none = new Set<number>();
  for (let at = 0; at < ids.length; at += BODIES_PER_READ) {
    for (const { id, body } of await backend.documentBodies(ids.slice(at, at + BODIES_PER_READ))) {
      if (body.length < READ_BOUNDS.indexedBody && !bodyMayMatch(body, isMatch)) none.add(id);
    }
  }
  return none;
}

/**
 * Whether a text whose indexed words are `body` may hold a word the
 * snippet's test marks: one of them passes `isMatch`, as folded in the whole
 * text or alone (foldedAlone: the highlighter folds each word alone).
 */
export function bodyMayMatch(body: string, isMatch: (foldedWord: string) => boolean): boolean {
  for (const word of body.split(" ")) {
    if (isMatch(word) || foldedAlone(word).some(isMatch)) return true;
  }
  return false;
}

/** Words a hit shows for "matched as" at most. */
const MAX_MATCHED_AS = 3;

/**
 * The words a hit matched through, when none of them is a word of the query
 * itself (a romanised guess, another language): as the post spells them.
 */
function matchedAs(segments: readonly { text: string; mark: boolean }[], queryWords: ReadonlySet<string>) {
  const words = new Map<string, string>();
  for (const { text, mark } of segments) {
    if (!mark) continue;
    const folded = foldText(text);
    if (queryWords.has(folded)) return [];
    if (!words.has(folded)) words.set(folded, text);
  }
  return [...words.values()].slice(0, MAX_MATCHED_AS);
}

export async function hits(
  backend: SearchBackend,
  ids: readonly number[],
  isMatch: (foldedWord: string) => boolean,
  queryWords: ReadonlySet<string>,
): Promise<SearchHit[]> {
  const test = wordTest(isMatch);
  if (ids.length === 0) return [];
  const [postRows, termRows, translationRows] = await Promise.all([
    backend.posts(ids),
    backend.terms(ids),
    backend.translations(ids),
  ]);
  const translations = new Map<number, Translation[]>();
  for (const { postId, ...translation } of translationRows)
    translations.set(postId, [...(translations.get(postId) ?? []), translation]);
  const rows = new Map(postRows.map((row) => [row.id, row] as const));
  const terms = new Map<number, Term[]>();
  for (const { postId, ...term } of termRows) terms.set(postId, [...(terms.get(postId) ?? []), term]);
  // Each text's start was read; the rest only where its start does not decide the snippet.
  const snippets = new Map<number, Segment[]>();
  const unsettled: number[] = [];
  for (const { id, content, excerpt } of postRows) {
    const early = bodySnippet(content, excerpt, test, false);
    if (early === null) unsettled.push(id);
    else snippets.set(id, early);
  }
  // A text that holds no match (a hit by its title, tags or person) needs only its start.
  const none = unsettled.length > 0 ? await noMatchIn(backend, unsettled, isMatch) : new Set<number>();
  for (const id of none) {
    const row = rows.get(id);
    const early = row && snippetWithoutMatch(row.content, row.excerpt, test);
    if (early) snippets.set(id, early);
  }
  const rest = unsettled.filter((id) => !snippets.has(id));
  if (rest.length > 0) {
    for (const { id, content } of await backend.postTexts(rest)) {
      const excerpt = rows.get(id)?.excerpt ?? "";
      snippets.set(id, bodySnippet(content, excerpt, test, true) ?? []);
    }
  }
  const found: SearchHit[] = [];
  for (const id of ids) {
    const row = rows.get(id);
    const snippet = snippets.get(id);
    // A post unpublished between the two reads is left out.
    if (!row || !snippet) continue;
    const { id: _id, content: _start, personSlug, nameEnglish, nameHindi, nameMarathi, ...summary } = row;
    const titleSegments = highlight(summary.title, test);
    found.push({
      ...summary,
      titleSegments,
      snippet,
      matchedTerms: (terms.get(id) ?? []).filter((term) => highlight(term.name, test).some((s) => s.mark)),
      matchedAs: matchedAs([...titleSegments, ...snippet], queryWords),
      person:
        personSlug === null
          ? null
          : {
              slug: personSlug,
              names: { english: nameEnglish ?? "", hindi: nameHindi ?? "", marathi: nameMarathi ?? "" },
            },
      translations: (translations.get(id) ?? []).sort(
        (a, b) => LANGUAGES.indexOf(a.language) - LANGUAGES.indexOf(b.language),
      ),
    });
  }
  return found;
}
