// `npm run eval:roman-letters`: how often the romaniser (app/content/roman-letters.ts)
// writes a Hindi or Marathi word in a spelling people actually used, measured on
// attested human romanisations (tests/fixtures/romanised/, see SOURCE.md there):
// a word is a hit when romaniseWord gives one of its attested spellings. Prints the
// share of words per language and part (tune, held-out; the demo words and the
// large sample), and with `-- misses` the words missed in the tune halves.
// Tune on the tune halves only; the held-out figures are the ones reported.
import { readFileSync } from "node:fs";
import path from "node:path";
import { type RomanLanguage, romaniseWord } from "#app/content/roman-letters.ts";

const DIR = path.join(import.meta.dirname, "..", "tests", "fixtures", "romanised");

export function readLexicon(file: string): Map<string, Set<string>> {
  const words = new Map<string, Set<string>>();
  const lines = readFileSync(path.join(DIR, file), "utf8").split("\n").slice(1);
  for (const line of lines) {
    const [devanagari, romanised] = line.split("\t");
    if (!devanagari || !romanised) continue;
    const spellings = words.get(devanagari) ?? new Set<string>();
    spellings.add(romanised);
    words.set(devanagari, spellings);
  }
  return words;
}

export function score(language: RomanLanguage, file: string) {
  const lexicon = readLexicon(file);
  let hits = 0;
  const misses: string[] = [];
  for (const [word, spellings] of lexicon) {
    const ours = romaniseWord(word, language);
    if (spellings.has(ours)) hits++;
    else misses.push(`${word}\t${ours}\t${[...spellings].join(" ")}`);
  }
  return { words: lexicon.size, hits, share: hits / lexicon.size, misses };
}

const showMisses = process.argv.includes("misses");
const rows: string[] = [];
for (const language of ["hindi", "marathi"] as const) {
  for (const sample of ["", ".large"]) {
    for (const part of ["tune", "heldout"]) {
      const file = `${language}${sample}.${part}.tsv`;
      const result = score(language, file);
      rows.push(
        `${language.padEnd(8)} ${(sample ? "large" : "demo").padEnd(6)} ${(part === "tune" ? "tune" : "held-out").padEnd(9)} ${String(result.hits).padStart(5)} / ${String(result.words).padEnd(5)} ${(100 * result.share).toFixed(1)}%`,
      );
      if (showMisses && part === "tune") console.log(result.misses.join("\n"));
    }
  }
}
console.log("language sample  part       words hit       share");
console.log(rows.join("\n"));
