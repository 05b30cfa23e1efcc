// The pronunciation route of romanised search (decision 037): an English word of
// MIN_PRONOUNCED_LETTERS or more letters that the CMU Pronouncing Dictionary
// knows also looks up the skeletons of the Devanagari spellings its
// pronunciation suggests (neurosurgeon: न्यूरोसर्जन, visitor: विझिटर). The data
// (english-pronunciations.txt, made by scripts/make-pronunciations.ts, about
// 2 MB) is read from disk once, on the first lookup, and searched by
// bisection (app/content/sorted-lines-file.ts): roman.ts is also in the
// browser's module graph (the search route imports a constant of parse.ts),
// which must hold neither fs nor the data. Without the file (or outside
// Node), the route finds nothing.

import { sortedLinesFile } from "#app/content/sorted-lines-file.ts";

/** Where the data file lives, from the project's root. */
export const PRONUNCIATIONS_FILE = "app/search/english-pronunciations.txt";
/** Shorter words are left to the spelling habits: "man" must not become मैन, "band" not बिंदु. */
export const MIN_PRONOUNCED_LETTERS = 5;

const pronunciations = sortedLinesFile(PRONUNCIATIONS_FILE);

/**
 * The skeletons an English word's pronunciation suggests beyond its own
 * (governor: "gvrnr", गवर्नर); none for a word the dictionary lacks or
 * shorter than MIN_PRONOUNCED_LETTERS.
 */
export function pronunciationSkeletons(latinWord: string): string[] {
  const word = latinWord.toLowerCase();
  if (word.length < MIN_PRONOUNCED_LETTERS || !/^[a-z]+$/.test(word)) return [];
  const skeletons = pronunciations.lookup(word);
  return skeletons ? skeletons.split(" ") : [];
}
