// A verse's lines from text that lost them (an excerpt is one line): Hindi
// and Marathi couplets end each line with a danda (। or ॥, sometimes with
// its number, ॥१॥). Isomorphic: the quote of the day and the list cards
// (app/share-image/list-card.ts) break the same lines.

/** After a danda (and any number and closing danda), before the next word. */
const LINE_END = /(?<=[।॥][\s०-९0-9॥]*?[।॥]?)\s+(?=\S)/u;
/** Longer pieces are prose sentences, not verse lines: they stay one paragraph. */
const MAX_VERSE_LINE = 64;

/**
 * The text's verse lines when it reads as verse (every piece between dandas
 * is short), else the text as one line; whitespace is collapsed either way.
 */
export function verseLines(text: string): string[] {
  const flat = text.replace(/\s+/g, " ").trim();
  if (flat === "") return [];
  const lines = flat.split(LINE_END).filter((line) => line !== "");
  if (lines.length < 2 || lines.some((line) => line.length > MAX_VERSE_LINE)) return [flat];
  return lines;
}
