// Matched words, marked in the original text (not the folded one: ज़रूरी is
// shown with its nukta). Segments are plain strings; the page renders them as
// text inside <mark>, never as HTML.
import { foldWords } from "#app/search/fold.ts";

export interface Segment {
  text: string;
  mark: boolean;
}

// A word as a reader sees it: letters, marks, digits, joiners inside, and
// apostrophes between letters (don't).
const WORD = /[\p{L}\p{M}\p{N}\p{Cf}]+(?:['’][\p{L}\p{M}\p{N}\p{Cf}]+)*/gu;

interface WordSpan {
  start: number;
  end: number;
  mark: boolean;
}

/** Tells whether a word as written matches: `(word) => boolean` over folded words, remembered per word. */
export type WordTest = (word: string) => boolean;

/**
 * A WordTest from a test of folded words. Plain ASCII words fold by lower
 * case alone; others go through foldWords once per distinct word.
 */
export function wordTest(isFoldedMatch: (foldedWord: string) => boolean): WordTest {
  const seen = new Map<string, boolean>();
  return (word) => {
    let result = seen.get(word);
    if (result === undefined) {
      result = /^[A-Za-z0-9'’]+$/.test(word)
        ? isFoldedMatch(word.toLowerCase().replace(/['’]/g, ""))
        : foldWords(word).some(isFoldedMatch);
      seen.set(word, result);
    }
    return result;
  };
}

function wordSpans(text: string, test: WordTest): WordSpan[] {
  const spans: WordSpan[] = [];
  for (const found of text.matchAll(WORD)) {
    const start = found.index;
    const word = found[0];
    spans.push({ start, end: start + word.length, mark: test(word) });
  }
  return spans;
}

function toSegments(text: string, spans: readonly WordSpan[], from: number, to: number): Segment[] {
  const segments: Segment[] = [];
  let cursor = from;
  const push = (piece: string, mark: boolean) => {
    if (piece === "") return;
    const last = segments[segments.length - 1];
    if (last && last.mark === mark) last.text += piece;
    else segments.push({ text: piece, mark });
  };
  for (const span of spans) {
    if (!span.mark || span.end <= from || span.start >= to) continue;
    push(text.slice(cursor, span.start), false);
    push(text.slice(span.start, span.end), true);
    cursor = span.end;
  }
  push(text.slice(cursor, to), false);
  return segments;
}

/** The whole text, matched words marked. */
export function highlight(text: string, test: WordTest): Segment[] {
  return toSegments(text, wordSpans(text, test), 0, text.length);
}

/** Characters of context shown before the first match. */
const LEAD = 40;

/** Where a snippet of `text` starts and ends (snippet()). */
function snippetWindow(text: string, spans: readonly WordSpan[], maxLength: number) {
  if (text.length <= maxLength) return { start: 0, end: text.length };
  const first = spans.find((span) => span.mark);
  let start = 0;
  if (first && first.end > maxLength - LEAD) {
    const wanted = Math.max(0, first.start - LEAD);
    start = spans.find((span) => span.start >= wanted)?.start ?? first.start;
  }
  let end = Math.min(text.length, start + maxLength);
  if (end < text.length) {
    const lastWhole = spans.filter((span) => span.start >= start && span.end <= end).at(-1);
    if (lastWhole && lastWhole.end > start) end = lastWhole.end;
  }
  if (text.length - start <= maxLength) end = text.length;
  return { start, end };
}

function snippetSegments(text: string, spans: readonly WordSpan[], maxLength: number): Segment[] {
  const { start, end } = snippetWindow(text, spans, maxLength);
  if (start === 0 && end === text.length) return toSegments(text, spans, 0, text.length);
  const segments = toSegments(text, spans, start, end);
  if (start > 0) segments.unshift({ text: "… ", mark: false });
  if (end < text.length) segments.push({ text: " …", mark: false });
  return mergeAdjacent(segments);
}

/**
 * About `maxLength` characters of `text` around its first match (or its
 * beginning), cut between words, with "…" where text was left out.
 */
export function snippet(text: string, test: WordTest, maxLength = 200): Segment[] {
  return snippetSegments(text, wordSpans(text, test), maxLength);
}

/**
 * snippet() of a longer text known here by its start (`start`: its first
 * characters, its last word perhaps cut): the same segments snippet() gives
 * for the whole text, when a match and the whole snippet lie before the
 * start's last word; else null (the whole text is needed). A long post's
 * match is usually near its beginning: its snippet then costs a few
 * kilobytes of text, not the whole post.
 */
export function snippetOfStart(start: string, test: WordTest, maxLength = 200): Segment[] | null {
  if (start.length <= maxLength) return null;
  const spans = wordSpans(start, test);
  const last = spans.at(-1);
  const first = spans.find((span) => span.mark);
  if (last === undefined || first === undefined || first.end >= last.start) return null;
  // Past these, snippetWindow reads the text's length or its last word, which the whole text has otherwise.
  if (snippetWindow(start, spans, maxLength).start + maxLength >= last.start) return null;
  return snippetSegments(start, spans, maxLength);
}

/**
 * snippet() of a longer text that holds no match, known here by its start
 * (as snippetOfStart): the start of the text, cut between words with "…",
 * when the whole window lies before the start's last word; else null.
 */
export function snippetOfStartWithoutMatch(start: string, test: WordTest, maxLength = 200): Segment[] | null {
  if (start.length <= maxLength) return null;
  const spans = wordSpans(start, test);
  const last = spans.at(-1);
  if (last === undefined || spans.some((span) => span.mark)) return null;
  if (snippetWindow(start, spans, maxLength).start + maxLength >= last.start) return null;
  return snippetSegments(start, spans, maxLength);
}

function mergeAdjacent(segments: Segment[]): Segment[] {
  const merged: Segment[] = [];
  for (const segment of segments) {
    const last = merged[merged.length - 1];
    if (last && last.mark === segment.mark) last.text += segment.text;
    else merged.push({ ...segment });
  }
  return merged;
}
