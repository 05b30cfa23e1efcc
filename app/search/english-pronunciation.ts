// The pronunciation route of romanised search (decision 037): an English word of
// MIN_PRONOUNCED_LETTERS or more letters that the CMU Pronouncing Dictionary
// knows also looks up the skeletons of the Devanagari spellings its
// pronunciation suggests (neurosurgeon: न्यूरोसर्जन, visitor: विझिटर). The data
// (english-pronunciations.txt, made by scripts/make-pronunciations.ts, about
// 2 MB) is read from disk once, on the first lookup, and kept as one string
// searched by bisection: no parsing, no per-word objects. It is found by
// walking up from this module, so the same code reads it from app/content/ in
// the sources and from the checkout's root in the built server (build/server/).
// Node's modules are taken from process.getBuiltinModule when called, not
// imported: roman.ts is also in the browser's module graph (the search
// route imports a constant of parse.ts), which must hold neither fs nor
// the data. Without the file (or outside Node), the route finds nothing.

/** Where the data file lives, from the project's root. */
export const PRONUNCIATIONS_FILE = "app/search/english-pronunciations.txt";
/** Shorter words are left to the spelling habits: "man" must not become मैन, "band" not बिंदु. */
export const MIN_PRONOUNCED_LETTERS = 5;

interface Pronunciations {
  text: string;
  /** Where the sorted lines start (after the # header). */
  start: number;
}

let loaded: Pronunciations | undefined;

/** The data file, found by walking up from this module (or the working directory); undefined if absent. */
function readPronunciations(): Pronunciations {
  const empty = { text: "", start: 0 };
  if (typeof process === "undefined" || typeof process.getBuiltinModule !== "function") return empty;
  const fs = process.getBuiltinModule("node:fs");
  const path = process.getBuiltinModule("node:path");
  const { fileURLToPath } = process.getBuiltinModule("node:url");
  const candidates: string[] = [];
  try {
    let dir = path.dirname(fileURLToPath(import.meta.url));
    for (;;) {
      candidates.push(path.join(dir, PRONUNCIATIONS_FILE));
      const parent = path.dirname(dir);
      if (parent === dir) break;
      dir = parent;
    }
  } catch {
    // Not a file: URL (a bundle evaluated from memory): the working directory below.
  }
  candidates.push(path.join(process.cwd(), PRONUNCIATIONS_FILE));
  const file = candidates.find((candidate) => fs.existsSync(candidate));
  if (!file) return empty;
  const text = fs.readFileSync(file, "latin1");
  let start = 0;
  while (text.startsWith("#", start)) start = text.indexOf("\n", start) + 1;
  return { text, start };
}

function pronunciations(): Pronunciations {
  loaded ??= readPronunciations();
  return loaded;
}

/**
 * The skeletons an English word's pronunciation suggests beyond its own
 * (governor: "gvrnr", गवर्नर); none for a word the dictionary lacks or
 * shorter than MIN_PRONOUNCED_LETTERS.
 */
export function pronunciationSkeletons(latinWord: string): string[] {
  const word = latinWord.toLowerCase();
  if (word.length < MIN_PRONOUNCED_LETTERS || !/^[a-z]+$/.test(word)) return [];
  const { text, start } = pronunciations();
  // Bisect on line starts: [low, high) are character offsets; each probe reads the line around mid.
  let low = start;
  let high = text.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    const lineStart = text.lastIndexOf("\n", mid - 1) + 1;
    const lineStartClamped = Math.max(lineStart, low);
    let lineEnd = text.indexOf("\n", lineStartClamped);
    if (lineEnd === -1) lineEnd = text.length;
    const space = text.indexOf(" ", lineStartClamped);
    const key = text.slice(lineStartClamped, space === -1 || space > lineEnd ? lineEnd : space);
    if (key === word) return text.slice(lineStartClamped + key.length + 1, lineEnd).split(" ");
    if (key < word) low = lineEnd + 1;
    else high = lineStartClamped;
  }
  return [];
}
