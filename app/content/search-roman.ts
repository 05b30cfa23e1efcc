// Romanised search (issue 4): "prem" finds प्रेम. Converting the query to
// Devanagari fails on the inherent a (prem → प्रेम्), so both sides go the
// other way: each indexed Devanagari word and each Latin query word become a
// loose Latin skeleton, and skeletons are compared. The skeleton drops what
// romanised spellings disagree on: vowel length (aa/a, ee/i, oo/u), every a
// after the first letter (so the inherent a and schwa deletion stop
// mattering), aspiration (bh/b, sh/s), doubled letters, and merges z/j, f/ph,
// w/v, q/k, dny/gy/jn (ज्ञ).

const CONSONANTS: Record<string, string> = {
  क: "k",
  ख: "kh",
  ग: "g",
  घ: "gh",
  ङ: "n",
  च: "ch",
  छ: "chh",
  ज: "j",
  झ: "jh",
  ञ: "n",
  ट: "t",
  ठ: "th",
  ड: "d",
  ढ: "dh",
  ण: "n",
  त: "t",
  थ: "th",
  द: "d",
  ध: "dh",
  न: "n",
  प: "p",
  फ: "ph",
  ब: "b",
  भ: "bh",
  म: "m",
  य: "y",
  र: "r",
  ल: "l",
  व: "v",
  श: "sh",
  ष: "sh",
  स: "s",
  ह: "h",
  ळ: "l",
  ऴ: "l",
  ऱ: "r",
  ऩ: "n",
};

// Placeholders for sounds romanised two ways; expanded into variants below.
// R: ऋ as ri (Hindi) or ru (Marathi). D: a medial ड/ढ, usually ड़/ढ़ before
// folding, as d or r (ladki/larki). N: a final nasal, written or not
// (maa/maan, nahi/nahin). H: a final visarga, written or not. Y: a final
// य, as ya or i (jaya/jai).
const VOWELS: Record<string, string> = {
  अ: "a",
  आ: "aa",
  इ: "i",
  ई: "ii",
  उ: "u",
  ऊ: "uu",
  ऋ: "R",
  ॠ: "R",
  ऌ: "li",
  ए: "e",
  ऐ: "ai",
  ओ: "o",
  औ: "au",
  ऍ: "e",
  ऎ: "e",
  ऑ: "o",
  ऒ: "o",
};

const SIGNS: Record<string, string> = {
  "\u093E": "aa",
  "\u093F": "i",
  "\u0940": "ii",
  "\u0941": "u",
  "\u0942": "uu",
  "\u0943": "R",
  "\u0944": "R",
  "\u0945": "e",
  "\u0946": "e",
  "\u0947": "e",
  "\u0948": "ai",
  "\u0949": "o",
  "\u094A": "o",
  "\u094B": "o",
  "\u094C": "au",
  "\u0962": "li",
};

const VIRAMA = "\u094D";
const ANUSVARA = "\u0902";
const CHANDRABINDU = "\u0901";
const VISARGA = "\u0903";
const MAX_VARIANTS = 8;
/** Spellings a query word is read in at most (search-roman's query side). */
const MAX_SPELLINGS = 12;

/**
 * A folded Devanagari word spelled in plain Latin letters, with the
 * placeholders R, D, N and H where two spellings are common.
 */
function transliterate(word: string): string {
  const chars = Array.from(word);
  let out = "";
  let inherentA = false;
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i]!;
    const consonant = CONSONANTS[c];
    if (consonant !== undefined) {
      if (inherentA) out += "a";
      if (c === "ज" && chars[i + 1] === VIRAMA && chars[i + 2] === "ञ") {
        out += "gy";
        i += 2;
      } else if ((c === "ड" || c === "ढ") && out !== "") {
        out += c === "ड" ? "D" : "Dh";
      } else if (c === "य" && i === chars.length - 1 && out !== "") {
        out += "Y";
        inherentA = false;
        continue;
      } else {
        out += consonant;
      }
      inherentA = true;
      continue;
    }
    const sign = SIGNS[c];
    if (sign !== undefined) {
      out += sign;
      inherentA = false;
      continue;
    }
    if (c === VIRAMA) {
      inherentA = false;
      continue;
    }
    if (inherentA) out += "a";
    inherentA = false;
    const last = i === chars.length - 1;
    if (c === ANUSVARA || c === CHANDRABINDU) out += last ? "N" : "n";
    else if (c === VISARGA) out += last ? "H" : "h";
    else if (c === "ॐ") out += "om";
    else if (VOWELS[c] !== undefined) out += VOWELS[c];
    else if (/[0-9a-z]/.test(c)) out += c;
  }
  if (inherentA) out += "a";
  return out;
}

const PLACEHOLDER_CHOICES: Record<string, string[]> = {
  R: ["ri", "ru"],
  D: ["d", "r"],
  N: ["n", ""],
  H: ["h", ""],
  Y: ["ya", "i"],
};

function expandPlaceholders(spelling: string): string[] {
  let variants = [""];
  for (const c of spelling) {
    const choices = PLACEHOLDER_CHOICES[c] ?? [c];
    const next: string[] = [];
    for (const v of variants) for (const choice of choices) next.push(v + choice);
    variants = next.slice(0, MAX_VARIANTS);
  }
  return variants;
}

/**
 * The loose skeleton of a Latin word: what romanised spellings of one
 * Devanagari word have in common. Empty when nothing is left.
 */
export function latinSkeleton(word: string): string {
  let s = word
    .normalize("NFKD")
    .toLowerCase()
    .replace(/[^a-z]/g, "");
  if (s === "") return "";
  s = s
    .replace(/^gn/, "gy")
    .replace(/dny|gny|jny|jn/g, "gy")
    .replace(/x/g, "ks")
    .replace(/q/g, "k")
    .replace(/z/g, "j")
    .replace(/f/g, "ph")
    .replace(/w/g, "v")
    .replace(/ck/g, "k")
    .replace(/c(?!h)/g, "k")
    .replace(/ee|ii/g, "i")
    .replace(/oo|uu/g, "u")
    .replace(/ei/g, "e")
    // Anusvara: saṃsāra/sansar, ahimsa/ahinsa, sambandh/sanbandh.
    .replace(/m(?=[bpsh])/g, "n")
    // Aspiration: an h after a consonant (bh, sh, chh, th …) goes.
    .replace(/([^aeiouh])h+/g, "$1")
    // Every a but a first one: the inherent vowel and vowel length stop mattering.
    .replace(/(?!^)a/g, "")
    .replace(/(.)\1+/g, "$1");
  return s;
}

/** The skeletons a folded Devanagari word answers to (a few spelling variants). */
export function devanagariSkeletons(foldedWord: string): string[] {
  const skeletons = new Set<string>();
  for (const spelling of expandPlaceholders(transliterate(foldedWord))) {
    const skeleton = latinSkeleton(spelling);
    if (skeleton !== "") skeletons.add(skeleton);
  }
  return [...skeletons];
}

/** Latin query words shorter than this are not compared with skeletons ("to" is not तो). */
export const MIN_ROMAN_LETTERS = 3;
/** Query skeletons at least this long also match skeletons they begin (prem → प्रेमी). */
export const MIN_ROMAN_PREFIX = 3;

/** Whether a Latin query word finds a Devanagari word, by the rule search uses. */
export function romanMatches(latinWord: string, foldedDevanagariWord: string): boolean {
  if (shortWordSpellings(latinWord).includes(foldedDevanagariWord)) return true;
  const skeletons = devanagariSkeletons(foldedDevanagariWord);
  return querySkeletons(latinWord).some((query) =>
    skeletons.some(
      (skeleton) => skeleton === query || (query.length >= MIN_ROMAN_PREFIX && skeleton.startsWith(query)),
    ),
  );
}

// ---------------------------------------------------------------- the query side (issue 14)
// People romanise a word in more ways than the skeleton absorbs. Rather than
// widen the index (stored skeletons are the same in every database), a Latin
// query word is also read in the spellings these habits stand for, and each
// spelling's skeleton is looked up. Found on the tune half of an attested
// lexicon (tests/fixtures/romanised), measured on the held-out half.

/** Consonants after which an h is not aspiration (rha, lha…): the h is a ह after an unwritten a. */
const PLAIN_BEFORE_H = /([rlmnvwy])h(?=[aeiou]|$)/g;

/** Each spelling with one occurrence of `pattern` replaced (ऋ is one letter of a word, not every ra). */
function eachOccurrence(word: string, pattern: RegExp, replacement: string): string[] {
  return [...word.matchAll(pattern)].map(
    (match) => word.slice(0, match.index) + replacement + word.slice(match.index + match[0].length),
  );
}

/** The spellings a Latin query word may stand for, itself first; at most MAX_VARIANTS. */
export function romanisedSpellings(latinWord: string): string[] {
  const word = latinWord.toLowerCase().replace(/[^a-z]/g, "");
  if (word === "") return [];
  const rules: ((w: string) => string | string[])[] = [
    // h moving or vanishing: yeh, woh, pehle, kehte (यह वह पहले कहते).
    (w) => w.replace(/[eo]h(?=[^aeiouh]|$)/g, "ah"),
    // rha, lha: रहा.
    (w) => w.replace(PLAIN_BEFORE_H, "$1ah"),
    // Doubled consonants written with cch/chch/tth: saccha, sacchai (सच्चा).
    (w) => w.replace(/c+h(?:ch)*/g, "ch").replace(/([bdgjkpt])\1h/g, "$1h"),
    // ऋ written ra between consonants: prakrati (प्रकृति).
    (w) => [
      ...eachOccurrence(w, /(?<=[^aeiou])ra(?=[^aeiou])/g, "ri"),
      ...eachOccurrence(w, /(?<=[^aeiou])ir(?=[^aeiou])/g, "ri"),
    ],
    // ॐ as aum.
    (w) => w.replace(/^aum$/, "om"),
    // क्यों as kyun/kyu: kyunki.
    (w) => w.replace(/yu(?=n|$)/g, "yo"),
    // A final nasal written m, or en for ें: ismem, unhonen (इसमें उन्होंने).
    (w) => [w.replace(/em$/, "en"), w.replace(/(?<=[^aeiou].*)en$/, "e")].filter((v) => v !== w),
    // Endings: huye, gaye, gayi, liye, hotey, sabsey, mukhye, boliy, chary, bhalae.
    (w) =>
      [
        w.replace(/(?<=[aeiou])y([ei])$/, "$1"),
        w.replace(/ey$/, "e"),
        w.replace(/(?<=[^aeiou])ye$/, "ya"),
        w.replace(/iy$/, "ie"),
        w.replace(/(?<=[^aeiou])y$/, "i"),
        w.replace(/ae$/, "ai"),
      ].filter((v) => v !== w),
    // A final h after a vowel, not written in Devanagari: toh (तो).
    (w) => w.replace(/(?<=[aeiou])h$/, ""),
    // English habits: u for the inherent a before a consonant cluster or at
    // the end (bus, such, pundit, subki: बस सच पंडित सबकी), a silent final e
    // (more, kathore: मोर कठोर), aun for ों (dusraun).
    (w) => w.replace(/u(?=[^aeiou](?:[^aeiou]|$))/g, "a"),
    (w) => w.replace(/(?<=[^aeiouy])e$/, ""),
    (w) => w.replace(/aun$/, "on"),
    // ए and ओ at the end written as English would: hay, joe, joo, howe (हे जो हो).
    (w) => w.replace(/ay$/, "e").replace(/(?:oo|o)w?e$|oo$/, "o"),
  ];
  const spellings = new Set([word]);
  let all = word;
  for (const rule of rules) {
    for (const changed of [rule(word)].flat()) if (changed !== "") spellings.add(changed);
    const applied = [rule(all)].flat();
    all = applied[applied.length - 1] || all;
  }
  spellings.add(all);
  return [...spellings].slice(0, MAX_SPELLINGS);
}

/**
 * A skeleton that stands for too many words to be a guess worth showing: a
 * word of one repeated letter (zzzz, kkkk) or a skeleton of one letter.
 */
export function isWeakRomanisation(latinWord: string, skeleton: string): boolean {
  return /^(.)\1+$/.test(latinWord) || skeleton.length < 2;
}

/** The skeletons of a Latin query word's spellings, weak ones left out. */
export function querySkeletons(latinWord: string): string[] {
  const word = latinWord.toLowerCase().replace(/[^a-z]/g, "");
  // Two consonants typed without vowels (jb, tm: जब तुम) are a whole word's skeleton, matched exactly.
  if (/^[^aeiou]{2}$/.test(word) && word[0] !== word[1])
    return [latinSkeleton(word)].filter((k) => k.length === 2);
  if (word.length < MIN_ROMAN_LETTERS || /^(.)\1+$/.test(word)) return [];
  const skeletons = new Set<string>();
  for (const spelling of romanisedSpellings(word)) {
    const skeleton = latinSkeleton(spelling);
    if (!isWeakRomanisation(spelling, skeleton)) skeletons.add(skeleton);
  }
  return [...skeletons];
}

const SHORT_CONSONANTS: Record<string, string[]> = {
  k: ["क"],
  kh: ["ख"],
  g: ["ग"],
  gh: ["घ"],
  c: ["च", "क"],
  ch: ["च", "छ"],
  j: ["ज"],
  jh: ["झ"],
  z: ["ज"],
  t: ["त", "ट"],
  th: ["थ", "ठ"],
  d: ["द", "ड"],
  dh: ["ध", "ढ"],
  n: ["न", "ण"],
  p: ["प"],
  ph: ["फ"],
  f: ["फ"],
  b: ["ब"],
  bh: ["भ"],
  m: ["म"],
  y: ["य"],
  r: ["र"],
  l: ["ल", "ळ"],
  v: ["व"],
  w: ["व"],
  s: ["स", "श"],
  sh: ["श", "ष"],
  h: ["ह"],
  q: ["क"],
};
const SHORT_SIGNS: Record<string, string[]> = {
  a: ["", "\u093E"],
  aa: ["\u093E"],
  i: ["\u093F", "\u0940"],
  ee: ["\u0940"],
  ii: ["\u0940"],
  u: ["\u0941", "\u0942"],
  oo: ["\u0942"],
  uu: ["\u0942"],
  e: ["\u0947", "\u0948"],
  ai: ["\u0948"],
  o: ["\u094B", "\u094C"],
  au: ["\u094C"],
};
const SHORT_VOWELS: Record<string, string[]> = {
  a: ["अ", "आ"],
  aa: ["आ"],
  i: ["इ", "ई"],
  ee: ["ई"],
  u: ["उ", "ऊ"],
  oo: ["ऊ"],
  e: ["ए", "ऐ"],
  ai: ["ऐ"],
  o: ["ओ", "औ"],
  au: ["औ"],
};
const CONSONANT_PART = "(kh|gh|ch|jh|th|dh|ph|bh|sh|[bcdfghjklmnpqrstvwyz])";
const VOWEL_PART = "(aa|ee|ii|oo|uu|ai|au|a|e|i|o|u)";
const CONSONANT_VOWEL = new RegExp(`^${CONSONANT_PART}${VOWEL_PART}$`);
const CONSONANT_VOWEL_CONSONANT = new RegExp(`^${CONSONANT_PART}${VOWEL_PART}${CONSONANT_PART}$`);
const VOWEL_CONSONANT = new RegExp(`^${VOWEL_PART}${CONSONANT_PART}$`);

/**
 * A short romanised word of one syllable (ke, ki, ek, us, me, maa, bhi)
 * spelled out in Devanagari: the whole words it may be (के, की, एक, उस, में,
 * माँ, भी). Such words are matched whole, by their full spelling: their
 * skeleton (k, m) stands for hundreds of words.
 */
export function shortWordSpellings(latinWord: string): string[] {
  const word = latinWord.toLowerCase();
  const spellings: string[] = word === "om" ? ["ॐ"] : [];
  // A closed syllable whose skeleton is one letter (paap, pap: पाप) is spelled out too.
  const closedSyllable = CONSONANT_VOWEL_CONSONANT.exec(word);
  if (closedSyllable && querySkeletons(word).length === 0) {
    for (const first of SHORT_CONSONANTS[closedSyllable[1]!] ?? [])
      for (const sign of SHORT_SIGNS[closedSyllable[2]!] ?? [])
        for (const last of SHORT_CONSONANTS[closedSyllable[3]!] ?? []) spellings.push(first + sign + last);
  }
  const open = CONSONANT_VOWEL.exec(word);
  if (open) {
    for (const consonant of SHORT_CONSONANTS[open[1]!] ?? [])
      for (const sign of SHORT_SIGNS[open[2]!] ?? [])
        spellings.push(consonant + sign, `${consonant + sign}\u0902`);
  }
  const closed = VOWEL_CONSONANT.exec(word);
  if (closed) {
    for (const vowel of SHORT_VOWELS[closed[1]!] ?? [])
      for (const consonant of SHORT_CONSONANTS[closed[2]!] ?? []) spellings.push(vowel + consonant);
  }
  return spellings;
}
