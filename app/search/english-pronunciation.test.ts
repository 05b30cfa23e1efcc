import { readFileSync, statSync } from "node:fs";
import path from "node:path";
import { expect, test } from "vitest";
import {
  MIN_PRONOUNCED_LETTERS,
  PRONUNCIATIONS_FILE,
  pronunciationSkeletons,
} from "#app/search/english-pronunciation.ts";
import { pronunciationSpellings } from "#app/search/english-pronunciation-map.ts";
import { foldText } from "#app/search/fold.ts";
import {
  devanagariSkeletons,
  latinSkeleton,
  querySkeletons,
  romanMatches,
  suffixedPronunciationSkeletons,
} from "#app/search/roman.ts";

// English words written in Devanagari as they are said. Our own
// words, not the evaluation lexicon's; the spelling habits alone miss them.
const SAID: [latin: string, devanagari: string][] = [
  ["minister", "मिनिस्टर"],
  ["computer", "कंप्यूटर"],
  ["parliament", "पार्लियामेंट"],
  ["university", "यूनिवर्सिटी"],
  ["newspaper", "न्यूज़पेपर"],
  ["laptop", "लैपटॉप"],
  ["passenger", "पैसेंजर"],
  ["journalist", "जर्नलिस्ट"],
  ["daughter", "डॉटर"],
  ["mother", "मदर"],
  ["weather", "वेदर"],
  ["birthday", "बर्थडे"],
  ["father", "फादर"],
  ["thousand", "थाउज़ंड"],
  ["teacher", "टीचर"],
  ["measure", "मेज़र"],
  ["visitors", "विज़िटर्स"],
  ["colonel", "कर्नल"],
  ["knowledge", "नॉलेज"],
];

test("English words find their Devanagari spelling by pronunciation", () => {
  for (const [latin, devanagari] of SAID) {
    expect(romanMatches(latin, foldText(devanagari)), `${latin} → ${devanagari}`).toBe(true);
  }
});

test("the route adds what the spelling habits cannot reach", () => {
  // colonel (K ER1 N AH0 L) is कर्नल: nothing in its letters says so.
  expect(pronunciationSkeletons("colonel")).toContain(latinSkeleton("karnal"));
  expect(pronunciationSkeletons("COLONEL")).toEqual(pronunciationSkeletons("colonel"));
  expect(querySkeletons("colonel")).toContain("krnl");
  // A word's own skeleton is not stored again.
  expect(pronunciationSkeletons("computer")).not.toContain(latinSkeleton("computer"));
});

test("phonemes become the letters a writer uses: ER र, AE ै or ॅ, Z ज़, TH थ, DH द, a final -s स", () => {
  const skeletons = (word: string, phonemes: string) =>
    pronunciationSpellings(word, phonemes.split(" ")).map((spelling) => latinSkeleton(spelling));
  const lands = (word: string, phonemes: string, devanagari: string) =>
    expect(
      skeletons(word, phonemes).some((skeleton) =>
        devanagariSkeletons(foldText(devanagari)).includes(skeleton),
      ),
      `${word} → ${devanagari}`,
    ).toBe(true);
  lands("governor", "G AH1 V ER0 N ER0", "गवर्नर");
  lands("governors", "G AH1 V ER0 N ER0 Z", "गवर्नर्स");
  lands("character", "K EH1 R IH0 K T ER0", "केरिक्टर");
  lands("cambridge", "K EY1 M B R IH0 JH", "केम्ब्रिज");
  lands("neurosurgeon", "N UH1 R OW0 S ER2 JH AH0 N", "न्यूरोसर्जन");
  lands("visitor", "V IH1 Z IH0 T ER0", "विझिटर");
  lands("packet", "P AE1 K AH0 T", "पैकेट");
  lands("packet", "P AE1 K AH0 T", "पॅकेट");
  lands("thriller", "TH R IH1 L ER0", "थ्रिलर");
  lands("brother", "B R AH1 DH ER0", "ब्रदर");
  lands("medium", "M IY1 D IY0 AH0 M", "मीडियम");
  lands("moment", "M OW1 M AH0 N T", "मोमेंट");
});

test("what the route must not bring in", () => {
  // Words shorter than MIN_PRONOUNCED_LETTERS keep to the spelling habits: man is not मैन, band not बिंदु.
  expect(MIN_PRONOUNCED_LETTERS).toBe(5);
  for (const short of ["man", "band", "sang", "hand", "fan"])
    expect(pronunciationSkeletons(short), short).toEqual([]);
  expect(romanMatches("man", foldText("मैन"))).toBe(false);
  expect(romanMatches("band", foldText("बिंदु"))).toBe(false);
  // Words the dictionary lacks, nonsense and non-letters bring nothing.
  for (const nonsense of ["zzzzz", "qqqqqq", "xyxyx", "kkkkkk", "abcdefgh", "pr3m!", ""]) {
    expect(pronunciationSkeletons(nonsense), nonsense).toEqual([]);
  }
  for (const nonsense of ["zzzz", "qqqq", "kkkk"]) expect(querySkeletons(nonsense), nonsense).toEqual([]);
  // Near words stay apart: governor is not गवर्नमेंट, visitor not विसर्जन, mother not मंदिर.
  const mustNot: [latin: string, devanagari: string][] = [
    ["governor", "गवर्नमेंट"],
    ["visitor", "विसर्जन"],
    ["mother", "मंदिर"],
    ["teacher", "टिकट"],
  ];
  for (const [latin, devanagari] of mustNot) {
    expect(romanMatches(latin, foldText(devanagari)), `${latin} ↛ ${devanagari}`).toBe(false);
  }
});

// An English word with Marathi or Hindi endings written on, as one word.
const SUFFIXED: [latin: string, devanagari: string][] = [
  ["collegemadhye", "कॉलेजमध्ये"],
  ["computerla", "कंप्यूटरला"],
  ["teacherwala", "टीचरवाला"],
  ["doctoranna", "डॉक्टरांना"],
  ["stationvarun", "स्टेशनवरून"],
  ["laptopmadhyech", "लॅपटॉपमध्येच"],
  ["passengerkadun", "पॅसेंजरकडून"],
  ["newspapermadhye", "न्यूज़पेपरमध्ये"],
  ["teacheron", "टीचरों"],
  ["journalistsudha", "जर्नलिस्टसुद्धा"],
  ["birthdaychya", "बर्थडेच्या"],
  ["weatherpramane", "वेदरप्रमाणे"],
  ["fatherkade", "फादरकडे"],
];

test("an English word with Indic endings finds the Devanagari compound", () => {
  for (const [latin, devanagari] of SUFFIXED) {
    expect(romanMatches(latin, foldText(devanagari)), `${latin} → ${devanagari}`).toBe(true);
  }
  // The stem said as it is, then the endings' own skeleton: ऑपरेशन + कडून.
  expect(suffixedPronunciationSkeletons("collegemadhye")).toContain(
    devanagariSkeletons(foldText("कॉलेजमध्ये"))[0],
  );
  // Up to three endings in a row (wala + nna + hi).
  expect(romanMatches("teacherwalyannahi", foldText("टीचरवाल्यांनाही"))).toBe(true);
});

test("what the endings must not bring in", () => {
  // The compound is not its stem alone, nor the stem with another ending.
  const mustNot: [latin: string, devanagari: string][] = [
    ["collegemadhye", "कॉलेज"],
    ["computerla", "कंप्यूटर"],
    ["teacherla", "टीचरवाला"],
    ["motherla", "मंदिरला"],
  ];
  for (const [latin, devanagari] of mustNot) {
    expect(romanMatches(latin, foldText(devanagari)), `${latin} ↛ ${devanagari}`).toBe(false);
  }
  // Marathi words are not split: their stems are not English words.
  for (const word of [
    "gharamadhye",
    "ramayanamadhye",
    "mumbaimadhye",
    "punyala",
    "shivajichya",
    "pustakanchi",
  ])
    expect(suffixedPronunciationSkeletons(word), word).toEqual([]);
  // Stems shorter than MIN_PRONOUNCED_LETTERS, nonsense stems, and endings that are not in the list.
  for (const word of ["filmla", "bankmadhye", "zzzzzkadun", "qqqqqqmadhye", "computerxyz", "teacherbd"])
    expect(suffixedPronunciationSkeletons(word), word).toEqual([]);
  // A vowel alone is no ending, and a word the dictionary has whole is not split.
  expect(suffixedPronunciationSkeletons("computere")).toEqual([]);
  expect(suffixedPronunciationSkeletons("karane")).toEqual([]);
  // Bounded: a handful of extra skeletons at most.
  expect(suffixedPronunciationSkeletons("passengerkadun").length).toBeLessThanOrEqual(8);
});

test("the data file: its source and licence, sorted lines, small", () => {
  const file = path.join(import.meta.dirname, "..", "..", PRONUNCIATIONS_FILE);
  expect(statSync(file).size).toBeLessThan(2.5e6);
  const text = readFileSync(file, "latin1");
  expect(text).toMatch(/^# SOURCE: derived from the CMU Pronouncing Dictionary/);
  expect(text).toContain("Carnegie Mellon University");
  const lines = text.split("\n").filter((line) => line !== "" && !line.startsWith("#"));
  for (let i = 1; i < lines.length; i++) {
    const [previous] = lines[i - 1]!.split(" ");
    const [word, ...skeletons] = lines[i]!.split(" ");
    if (!(previous! < word!) || !/^[a-z]+$/.test(word!) || skeletons.length === 0) {
      throw new Error(`line ${i}: ${lines[i]}`);
    }
  }
  // The first and last lines are found by the bisection too.
  const first = lines[0]!.split(" ");
  const last = lines.at(-1)!.split(" ");
  expect(pronunciationSkeletons(first[0]!)).toEqual(first.slice(1));
  expect(pronunciationSkeletons(last[0]!)).toEqual(last.slice(1));
});
