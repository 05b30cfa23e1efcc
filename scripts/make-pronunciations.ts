// `npx tsx scripts/make-pronunciations.ts path/to/cmudict.dict`: writes
// app/search/english-pronunciations.txt, the skeletons romanised search looks
// up for English words written in Devanagari as they are said (read by
// app/search/english-pronunciation.ts). The input is the CMU
// Pronouncing Dictionary (https://github.com/cmusphinx/cmudict, cmudict.dict,
// BSD-style licence, copied into the output's header). Kept: words of letters
// only, of MIN_PRONOUNCED_LETTERS or more, their first pronunciation, and of
// its skeletons (english-pronunciation-map.ts) those that are not the
// word's own skeleton; a word left with none is not written. Run it again when
// latinSkeleton or the mapping changes.
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { MIN_PRONOUNCED_LETTERS, PRONUNCIATIONS_FILE } from "#app/search/english-pronunciation.ts";
import { pronunciationSpellings } from "#app/search/english-pronunciation-map.ts";
import { latinSkeleton } from "#app/search/roman.ts";

export const LICENCE = `Copyright (C) 1993-2015 Carnegie Mellon University. All rights reserved.

Redistribution and use in source and binary forms, with or without
modification, are permitted provided that the following conditions
are met:

1. Redistributions of source code must retain the above copyright
   notice, this list of conditions and the following disclaimer.
   The contents of this file are deemed to be source code.

2. Redistributions in binary form must reproduce the above copyright
   notice, this list of conditions and the following disclaimer in
   the documentation and/or other materials provided with the
   distribution.

This work was supported in part by funding from the Defense Advanced
Research Projects Agency, the Office of Naval Research and the National
Science Foundation of the United States of America, and by member
companies of the Carnegie Mellon Sphinx Speech Consortium. We acknowledge
the contributions of many volunteers to the expansion and improvement of
this dictionary.

THIS SOFTWARE IS PROVIDED BY CARNEGIE MELLON UNIVERSITY \`\`AS IS'' AND
ANY EXPRESSED OR IMPLIED WARRANTIES, INCLUDING, BUT NOT LIMITED TO,
THE IMPLIED WARRANTIES OF MERCHANTABILITY AND FITNESS FOR A PARTICULAR
PURPOSE ARE DISCLAIMED.  IN NO EVENT SHALL CARNEGIE MELLON UNIVERSITY
NOR ITS EMPLOYEES BE LIABLE FOR ANY DIRECT, INDIRECT, INCIDENTAL,
SPECIAL, EXEMPLARY, OR CONSEQUENTIAL DAMAGES (INCLUDING, BUT NOT
LIMITED TO, PROCUREMENT OF SUBSTITUTE GOODS OR SERVICES; LOSS OF USE,
DATA, OR PROFITS; OR BUSINESS INTERRUPTION) HOWEVER CAUSED AND ON ANY
THEORY OF LIABILITY, WHETHER IN CONTRACT, STRICT LIABILITY, OR TORT
(INCLUDING NEGLIGENCE OR OTHERWISE) ARISING IN ANY WAY OUT OF THE USE
OF THIS SOFTWARE, EVEN IF ADVISED OF THE POSSIBILITY OF SUCH DAMAGE.`;

/** Each word's first pronunciation (its phonemes), words of letters only and long enough. */
export function firstPronunciations(
  dictionary: string,
  minLetters = MIN_PRONOUNCED_LETTERS,
): Map<string, string[]> {
  const words = new Map<string, string[]>();
  for (const [word, [first]] of allPronunciations(dictionary, minLetters)) if (first) words.set(word, first);
  return words;
}

/** Each word's pronunciations, the first first (the dictionary's alternatives, word(2), word(3), after it). */
export function allPronunciations(
  dictionary: string,
  minLetters = MIN_PRONOUNCED_LETTERS,
): Map<string, string[][]> {
  const words = new Map<string, string[][]>();
  for (const line of dictionary.split("\n")) {
    const [entry, ...phonemes] = line.replace(/#.*/, "").trim().split(/\s+/);
    const word = entry?.replace(/\(\d+\)$/, "");
    if (!word || !/^[a-z]+$/.test(word) || word.length < minLetters || phonemes.length === 0) continue;
    words.set(word, [...(words.get(word) ?? []), phonemes]);
  }
  return words;
}

/** The data file's lines: `word skeleton skeleton…`, sorted by word. */
export function pronunciationLines(words: ReadonlyMap<string, readonly string[]>): string[] {
  const lines: string[] = [];
  for (const word of [...words.keys()].sort()) {
    const own = latinSkeleton(word);
    const skeletons = new Set<string>();
    for (const spelling of pronunciationSpellings(word, words.get(word)!)) {
      const skeleton = latinSkeleton(spelling);
      if (skeleton.length >= 2 && skeleton !== own) skeletons.add(skeleton);
    }
    if (skeletons.size > 0) lines.push(`${word} ${[...skeletons].join(" ")}`);
  }
  return lines;
}

function main() {
  const input = process.argv[2];
  if (!input) {
    console.error("usage: npx tsx scripts/make-pronunciations.ts path/to/cmudict.dict");
    process.exitCode = 1;
    return;
  }
  const words = firstPronunciations(readFileSync(input, "utf8"));
  const lines = pronunciationLines(words);
  const header = [
    "SOURCE: derived from the CMU Pronouncing Dictionary, cmudict.dict of https://github.com/cmusphinx/cmudict",
    "by scripts/make-pronunciations.ts (its header says what is kept). Each line: an English word, then the",
    "romanised-search skeletons of the Devanagari spellings its pronunciation suggests (app/content/",
    "english-pronunciation-map.ts). The dictionary's licence:",
    "",
    ...LICENCE.split("\n"),
  ].map((line) => `#${line === "" ? "" : ` ${line}`}`);
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
  const output = path.join(root, PRONUNCIATIONS_FILE);
  writeFileSync(output, `${[...header, ...lines].join("\n")}\n`);
  console.log(
    `${words.size} words of ${MIN_PRONOUNCED_LETTERS}+ letters, ${lines.length} written to ${output}`,
  );
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
