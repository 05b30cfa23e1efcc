// Hindi and Marathi in Roman letters (decision 051), written the way people
// write them in chat, not in a scholarly scheme: प्रेम → prem, कबीर → kabir,
// ज्ञान → gyan (Hindi) / dnyan (Marathi). One job: Devanagari text in, Latin
// text out; everything that is not a Devanagari letter (Latin words,
// punctuation, line breaks) passes through, Devanagari digits become ASCII.
// The letters come from app/search/roman.ts (which romanises for matching, not
// for reading); the choices were measured on the tune halves of attested
// human romanisations and are reported on the held-out halves
// (docs/roman-letters.md, `npm run eval:roman-letters`). Marathi schwas inside
// a word follow a table learned from the tune half (roman-schwas.txt,
// decision 083) where it knows their context.

import {
  englishWordFor,
  englishWordsSaidExactly,
  initialismFor,
  isCommonEnglishWord,
} from "#app/content/english-loanwords.ts";
import { htmlToText } from "#app/content/html-text.ts";
import { sortedLinesFile } from "#app/content/sorted-lines-file.ts";
import { CONSONANTS } from "#app/search/roman.ts";

export type RomanLanguage = "hindi" | "marathi";

const VIRAMA = "\u094D";
const NUKTA = "\u093C";
const ANUSVARA = "\u0902";
const CHANDRABINDU = "\u0901";
const VISARGA = "\u0903";

/**
 * Letters people type otherwise than app/search/roman.ts spells them: फ as f
 * (safed, kafila: 74.1% of the large Hindi tune words against 72.9% with ph).
 */
const PLAIN: Record<string, string> = { फ: "f" };

/** Letters with a nukta, as people type them (ज़ z, फ़ f, ड़ d as in ladka). */
const NUKTA_CONSONANTS: Record<string, string> = {
  क: "k",
  ख: "kh",
  ग: "g",
  ज: "z",
  ड: "d",
  ढ: "dh",
  फ: "f",
  य: "y",
  र: "r",
  न: "n",
  ळ: "l",
};

/** Independent vowels; "A", "I", "U" are the long vowels, spelled by position (see vowelText). */
const VOWELS: Record<string, string> = {
  अ: "a",
  आ: "A",
  इ: "i",
  ई: "I",
  उ: "u",
  ऊ: "U",
  ऋ: "R",
  ॠ: "R",
  ऌ: "li",
  ए: "e",
  ऐ: "ai",
  ओ: "o",
  औ: "au",
  ऍ: "E",
  ऎ: "e",
  ऑ: "o",
  ऒ: "o",
};

const SIGNS: Record<string, string> = {
  "\u093E": "A",
  "\u093F": "i",
  "\u0940": "I",
  "\u0941": "u",
  "\u0942": "U",
  "\u0943": "R",
  "\u0944": "R",
  "\u0945": "E",
  "\u0946": "e",
  "\u0947": "e",
  "\u0948": "ai",
  "\u0949": "o",
  "\u094A": "o",
  "\u094B": "o",
  "\u094C": "au",
  "\u0962": "li",
};

/** Consonants an anusvara is written m before (sambandh, kumbh); before m it is n (kanmule). */
const LABIALS = new Set(["p", "f", "b", "bh"]);

/** One sound of a word: a consonant (with its vowel) or a vowel on its own. */
interface Unit {
  /** The consonant's letters; "" for an independent vowel. */
  consonant: string;
  /** The vowel: "" for none (virama, or a deleted schwa), "a" for the inherent vowel. */
  vowel: string;
  /** Whether `vowel` is the inherent a (a schwa that may be dropped). */
  schwa: boolean;
  /** A nasal (anusvara, chandrabindu) or h (visarga) after the vowel. */
  coda: "" | "N" | "H";
}

/** Devanagari digits to ASCII. */
function digit(c: string): string | undefined {
  const code = c.codePointAt(0) ?? 0;
  return code >= 0x966 && code <= 0x96f ? String(code - 0x966) : undefined;
}

/** Whether a character belongs to a Devanagari word (letters and signs, not digits or dandas). */
function isWordChar(c: string): boolean {
  const code = c.codePointAt(0) ?? 0;
  return (
    (code >= 0x900 && code <= 0x963 && code !== 0x964 && code !== 0x965) ||
    (code >= 0x971 && code <= 0x97f) ||
    c === "\u200C" ||
    c === "\u200D"
  );
}

function parse(word: string, language: RomanLanguage): Unit[] {
  const chars = Array.from(word.normalize("NFD"));
  const units: Unit[] = [];
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i] as string;
    const last = units[units.length - 1];
    if (c === "ज" && chars[i + 1] === VIRAMA && chars[i + 2] === "ञ") {
      units.push({ consonant: language === "marathi" ? "dny" : "gy", vowel: "a", schwa: true, coda: "" });
      i += 2;
      continue;
    }
    if (c === "क" && chars[i + 1] === VIRAMA && chars[i + 2] === "ष") {
      units.push({ consonant: "ksh", vowel: "a", schwa: true, coda: "" });
      i += 2;
      continue;
    }
    const consonant = CONSONANTS[c];
    if (consonant !== undefined) {
      const nukta = chars[i + 1] === NUKTA;
      if (nukta) i++;
      units.push({
        consonant: nukta ? (NUKTA_CONSONANTS[c] ?? consonant) : (PLAIN[c] ?? consonant),
        vowel: "a",
        schwa: true,
        coda: "",
      });
      continue;
    }
    const sign = SIGNS[c];
    if (sign !== undefined && last && last.consonant !== "" && last.schwa) {
      last.vowel = sign;
      last.schwa = false;
      continue;
    }
    if (c === VIRAMA && last && last.schwa) {
      last.vowel = "";
      last.schwa = false;
      continue;
    }
    if ((c === ANUSVARA || c === CHANDRABINDU) && last) {
      last.coda = "N";
      if (last.schwa) last.schwa = false; // a nasal keeps its vowel: संत sant, हंस hans
      continue;
    }
    if (c === VISARGA && last) {
      last.coda = "H";
      continue;
    }
    const vowel = VOWELS[c];
    if (vowel !== undefined) {
      units.push({ consonant: "", vowel, schwa: false, coda: "" });
      continue;
    }
    if (c === "ॐ") units.push({ consonant: "", vowel: "om", schwa: false, coda: "" });
    // Nukta on its own, avagraha, zero-width joiners: nothing to write.
  }
  return units;
}

/**
 * A final cluster ending in these keeps its a: satya, mitra, vishva (ण too was measured: 2 words fewer).
 * A Marathi ending closing on a cluster keeps it whatever the letter: विरुद्ध viruddha (see dropSchwas).
 */
const KEEP_FINAL_A_AFTER = new Set(["y", "r", "v"]);

/** Whether unit i sounds a vowel (after deletion so far). */
function hasVowel(units: Unit[], i: number): boolean {
  const u = units[i];
  return u !== undefined && u.vowel !== "";
}

/**
 * The vowels of a word's last syllable before which a medial schwa stays:
 * Hindi बिकती bikati (not bikti), पति pati, अनुमति anumati; Marathi also ए
 * and ऊ: गोखले gokhale, चासणी chasani. Measured on the large tune words:
 * Hindi ई and ओ +6 words of 1,464 (आ: -3, ए: -1; अपना stays apna), Marathi
 * ई, ए and ऊ +35 of 1,518 (ओ too: one more, but करतो is typed karto); the
 * short इ on the wide tune halves: Hindi +22 words of 15,205, Marathi +9 of
 * 28,728. Not inside a Marathi ending: सारखे sarkhe (+20 of 28,728).
 */
const KEEP_SCHWA_BEFORE_LAST: Record<RomanLanguage, Set<string>> = {
  hindi: new Set(["I", "o", "i"]),
  marathi: new Set(["I", "e", "U", "i"]),
};

/**
 * Schwa deletion: the final inherent a goes (except in a word of one
 * syllable, after a cluster ending in y, r or v: satya, mitra, and before
 * a visarga: namah), and a
 * medial one goes between a vowel-consonant and a consonant-vowel (VC_CV),
 * scanning from the right so that two neighbours never both go (samajhna),
 * but not before a last syllable in KEEP_SCHWA_BEFORE_LAST. An ending
 * written onto a Marathi word (see cutEndings) is cut on its own: its
 * final a goes even in one syllable (च ch, त t).
 */
function dropSchwas(units: Unit[], language: RomanLanguage, ending = false): void {
  const end = units.length - 1;
  const syllables = units.filter((u) => u.vowel !== "").length;
  const final = units[end];
  // A visarga keeps its vowel: namah.
  if (final?.schwa && final.coda === "" && (syllables > 1 || ending)) {
    const before = units[end - 1];
    const cluster = before !== undefined && before.consonant !== "" && before.vowel === "";
    // An ending keeps it after any cluster: विरुद्ध viruddha (+34 Marathi words of 28,728).
    const drop = !(cluster && (ending || KEEP_FINAL_A_AFTER.has(final.consonant)));
    if (schwaChoice(units, end, language, ending, drop)) {
      final.vowel = "";
      final.schwa = false;
    }
  }
  for (let i = end - 1; i >= 1; i--) {
    const u = units[i] as Unit;
    if (!u.schwa || u.coda !== "") continue;
    if (schwaChoice(units, i, language, ending, ruleDropsMedial(units, i, language, ending))) {
      u.vowel = "";
      u.schwa = false;
    }
  }
}

function ruleDropsMedial(units: Unit[], i: number, language: RomanLanguage, ending: boolean): boolean {
  const end = units.length - 1;
  const previous = units[i - 1] as Unit;
  const next = units[i + 1] as Unit;
  // Left: a vowel, then this consonant alone (not the end of a cluster, not after a nasal: zindagi;
  // deleting there too gains one tune word of 1,464 and writes zindgi).
  if (!hasVowel(units, i - 1) || previous.coda !== "") return false;
  // Right: a consonant that sounds a vowel.
  if (next.consonant === "" || !hasVowel(units, i + 1)) return false;
  if (i + 1 === end && !ending && KEEP_SCHWA_BEFORE_LAST[language].has(next.vowel)) return false;
  // Marathi keeps it before a schwa and a cluster: कळवण्याची kalavanyachi, दडपण्याचा (+10 words
  // of 1,518; in Hindi -6).
  const afterNext = units[i + 2];
  const clusterAfterNext = afterNext !== undefined && afterNext.consonant !== "" && !hasVowel(units, i + 2);
  if (language === "marathi" && next.vowel === "a" && clusterAfterNext && i + 2 !== end) return false;
  return true;
}

/** A unit as a context token: its consonant, its vowel as it stands (_ for none), its coda. */
function token(u: Unit | undefined): string {
  if (u === undefined) return "#";
  return `${u.consonant}${u.vowel === "" ? "_" : u.vowel}${u.coda}`;
}

/**
 * The contexts a schwa is learned and looked up by (decision 083), the wider
 * first: where it is (M inside the word, F its last a; e in a Marathi ending),
 * the units around it as they stand (those to its right already decided),
 * its consonant in brackets: two units to its right, then one.
 */
function schwaContexts(units: readonly Unit[], i: number, ending: boolean): [string, string] {
  const where = `${i === units.length - 1 ? "F" : "M"}${ending ? "e" : ""}`;
  const t = (k: number) => token(units[k]);
  const around = `${where}.${t(i - 1)}.[${units[i]?.consonant ?? ""}].${t(i + 1)}`;
  return [`${around}.${t(i + 2)}`, around];
}

/** Where the learned table lives, from the project's root (scripts/make-roman-schwas.ts writes it). */
export const SCHWAS_FILE = "app/content/roman-schwas.txt";
/** In the table: the schwa is written (KEEP) or left out (DROP). */
export const SCHWA_KEEP = "a";
export const SCHWA_DROP = "-";

const learnedSchwas = sortedLinesFile(SCHWAS_FILE);

/** Decides a schwa: given the contexts, the language and what the rules say (true: drop it), whether to drop it. */
export type SchwaChooser = (
  contexts: [string, string],
  language: RomanLanguage,
  rulesDrop: boolean,
) => boolean;

/**
 * Marathi's schwas inside a word as the tune half's writers wrote them in
 * that context; a word's last a, and Hindi, by the rules.
 */
const tableChooser: SchwaChooser = (contexts, language, rulesDrop) => {
  if (language !== "marathi" || contexts[0].startsWith("F")) return rulesDrop;
  for (const context of contexts) {
    const learned = learnedSchwas.lookup(context);
    if (learned === SCHWA_KEEP) return false;
    if (learned === SCHWA_DROP) return true;
  }
  return rulesDrop;
};

let chooser: SchwaChooser = tableChooser;

/**
 * Runs fn with another chooser of schwas (the script that learns the table
 * starts from the rules alone); words written meanwhile are not kept.
 */
export function withSchwaChooser<T>(other: SchwaChooser, fn: () => T): T {
  const before = chooser;
  chooser = other;
  written.hindi.clear();
  written.marathi.clear();
  try {
    return fn();
  } finally {
    chooser = before;
    written.hindi.clear();
    written.marathi.clear();
  }
}

/** The rules alone, as a chooser (the table's starting point). */
export const rulesOnly: SchwaChooser = (_contexts, _language, rulesDrop) => rulesDrop;

function schwaChoice(
  units: Unit[],
  i: number,
  language: RomanLanguage,
  ending: boolean,
  drop: boolean,
): boolean {
  if (chooser === rulesOnly || (chooser === tableChooser && language !== "marathi")) return drop;
  return chooser(schwaContexts(units, i, ending), language, drop);
}

/**
 * Long vowels as people type them: आ is aa at the start of a word (aaj, aap)
 * and a elsewhere (apna, kam); ई and ऊ are i and u everywhere. Measured on
 * the large Hindi tune words: aa everywhere 47.9% (against 72.9%), a at the
 * start too 72.4%, ee at the end 64.1%, oo 70.6%. A Hindi word of one
 * closed syllable is the exception (see romaniseUnits): geet, neet, bheed,
 * phool, doodh (+2 words; ee in every closed last syllable: -10).
 */
function vowelText(vowel: string, initial: boolean, language: RomanLanguage): string {
  switch (vowel) {
    case "A":
      return initial ? "aa" : "a";
    case "I":
      return "i";
    case "U":
      return "u";
    case "R":
      return language === "marathi" ? "ru" : "ri";
    case "E":
      // ॅ, in English words: Marathi बॅक, कॅडर as back, cader (+2 words of 1,518); Hindi bek (as before).
      return language === "marathi" ? "a" : "e";
    default:
      return vowel;
  }
}

/**
 * Consonants after which a व in a cluster is w, as people type स्व, ज्व and
 * श्व: swami, swasth, jwala, ishwar (स, ज: +5 Hindi words of 1,464 and +7
 * Marathi of 1,518; श on the wide tune halves: Hindi +21 of 15,205, Marathi
 * +1 of 28,728; after द: 0 and -2 of the large, -3 and -26 of the wide;
 * after every consonant: -13 and -24, and v elsewhere, as measured before:
 * w everywhere 67.5% against 74.0%).
 */
const W_AFTER = new Set(["s", "j", "sh"]);

/** One word's units in Roman letters. */
function romaniseUnits(units: Unit[], language: RomanLanguage): string {
  const syllables = units.filter((u) => u.vowel !== "").length;
  let out = "";
  for (let i = 0; i < units.length; i++) {
    const u = units[i] as Unit;
    const previous = units[i - 1];
    const initial = out === "";
    const final = i === units.length - 1;
    let text = u.consonant;
    if (
      text === "v" &&
      previous &&
      previous.consonant !== "" &&
      previous.vowel === "" &&
      W_AFTER.has(previous.consonant)
    ) {
      text = "w";
    }
    // Hindi वाल inside a word is wal: wala, wale, diwali (+1 word of 1,464; Marathi -1).
    if (language === "hindi" && text === "v" && u.vowel === "A" && units[i + 1]?.consonant === "l" && i > 0) {
      text = "w";
    }
    // Marathi झ is mostly z: zara, zope, zujar (+7 words of 1,518).
    if (text === "jh" && language === "marathi") text = "z";
    // A y between i and e or aa, as people write it: liye, chahiye (ए after ि).
    if (text === "" && (u.vowel === "e" || u.vowel === "A") && previous?.vowel === "i") text = "y";
    // ऋ after a consonant is r + i/u: kri-shna; an independent ऋ is ri.
    let vowel = vowelText(u.vowel, initial && u.consonant === "", language);
    // A Hindi word of one closed syllable: geet, bheed, phool (see vowelText).
    if (language === "hindi" && syllables === 1 && !final && (u.vowel === "I" || u.vowel === "U")) {
      vowel = u.vowel === "I" ? "ee" : "oo";
    }
    text += vowel;
    if (u.coda === "N") {
      const next = units[i + 1];
      text += next && LABIALS.has(next.consonant) ? "m" : "n";
    } else if (u.coda === "H" && !final) {
      // Visarga: dukh (दुःख) drops it before a consonant; namah keeps it at the end.
    } else if (u.coda === "H") {
      text += "h";
    }
    out += text;
  }
  return out;
}

/**
 * Endings Marathi writes onto a word: case endings, postpositions and the
 * clitics ही and च (घराचे, मुंबईतील, त्यामुळे, तोही). A word is cut into its stem
 * and these, and each part loses its schwas on its own (see cutEndings).
 */
const MARATHI_ENDINGS = (
  "चा ची चे च्या ला ना ने नी त मध्ये मधून मधील मधला मधली मधले मधल्या वर वरून वरील वरचा वरची वरचे वरच्या " +
  "साठी सारखा सारखी सारखे सारख्या कडे कडून कडील पासून पर्यंत मुळे सह सोबत ही च देखील तील तून हून पेक्षा " +
  "बद्दल विषयी करिता शिवाय जवळ नंतर पूर्वी समोर पुढे मागे आधी प्रमाणे बरोबर खाली बाहेर द्वारे विरुद्ध ऐवजी " +
  "वरुन वरती दरम्यान शी पैकी भोवती पाशी सुद्धा " +
  // Word-forming parts people write as a word of their own: -पणा (ness), करण (-isation),
  // कर्ता (doer), नगर (town): upkaran, apaharankartya, ahmadnagar (+112 words of 28,728).
  "पणा करण कर्ता कर्ते कर्त्या कर्त्यां नगर"
)
  .split(" ")
  .sort((a, b) => b.length - a.length);

/**
 * Endings after which a stem ending in a consonant keeps its a, as said and
 * typed: अभिनवने abhinavane, करत karat, घरच gharach, करताना (+29 words of
 * 1,518, and +18 more after an ending: त ही, tahi; ही as said, gharatahi:
 * no change; the genitive चा, ची, चे, च्या goes the other way: kebinchya, -21).
 */
const MARATHI_KEEP_A_BEFORE = new Set(["ने", "त", "च", "ना", "ही"]);

/**
 * A word cut into its stem and the parts of `endings` (longest first) written
 * onto it, from the right: अकबराचे → अकबरा, चे; अधिकारांमध्येही → अधिकारां,
 * मध्ये, ही. A stem keeps at least two letters and does not end on a virama.
 */
function cutEndings(word: string, endings: readonly string[]): string[] {
  const parts: string[] = [];
  let stem = word;
  for (;;) {
    const ending = endings.find(
      (e) => stem.endsWith(e) && Array.from(stem).length - Array.from(e).length >= 2,
    );
    if (ending === undefined) break;
    const rest = stem.slice(0, -ending.length);
    if (rest.endsWith(VIRAMA) || rest.endsWith(NUKTA)) break;
    parts.unshift(ending);
    stem = rest;
  }
  return [stem, ...parts];
}

/**
 * A Marathi word: the stem and each ending lose their schwas as words of
 * their own. An oblique आ closing the stem before an ending is left out of
 * the stem's cut (अकबरा चे: akbar + a + che, not akabrache), and a part that
 * ends on its a keeps it before an ending of MARATHI_KEEP_A_BEFORE (तील ही:
 * tilahi). Measured on the large Marathi tune words, with the other rules:
 * 60.7% against 52.5% for the whole word cut as Hindi.
 */
function romaniseMarathi(word: string): string {
  const parts = cutEndings(word, MARATHI_ENDINGS);
  let out = "";
  for (let k = 0; k < parts.length; k++) {
    const units = parse(parts[k] as string, "marathi");
    const last = units[units.length - 1];
    const beforeEnding = k < parts.length - 1;
    if (k === 0 && beforeEnding && units.length > 1 && last?.consonant !== "" && last?.vowel === "A") {
      last.vowel = "";
      dropSchwas(units, "marathi");
      last.vowel = "A";
    } else {
      const keepA = last?.schwa === true && MARATHI_KEEP_A_BEFORE.has(parts[k + 1] ?? "");
      dropSchwas(units, "marathi", k > 0);
      if (keepA && last) last.vowel = "a";
    }
    const text = romaniseUnits(units, "marathi");
    // An English stem with Marathi endings: इंजेक्टरच्या injectorchya (decision 075).
    // A stem the exceptions know (साइटचे siteche), else an English stem.
    const exception = k === 0 && beforeEnding ? exceptionFor(parts[0] as string, "marathi") : undefined;
    const english =
      k === 0 && beforeEnding && !isCommonEnglishWord(text) ? englishWordFor(parts[0] as string) : undefined;
    out += exception ?? english ?? text;
  }
  return out;
}

/**
 * Very common words the rules write otherwise than people do, each from the
 * tune half of the Hindi lexicon with its writers' spelling (the schwa rule
 * before a last ई or ओ writes apani, dusaron; a final nasal writes man for
 * मां). Chandrabindu is looked up as anusvara (माँ, मां).
 */
const EXCEPTIONS: Record<RomanLanguage, Record<string, string>> = {
  hindi: { अपनी: "apni", दूसरों: "dusron", मां: "maa", कृष्ण: "krishna", साइट: "site" },
  // कृष्ण as the Hindi writers spell it (krishna 5, krishan 4, krishn 1), who write Marathi too;
  // साइट as the word both borrow (वेबसाइट), where the table's most frequent word said so is sight.
  marathi: { कृष्ण: "krishna", साइट: "site" },
};

/** The exception for a word or a Marathi stem (NFC), chandrabindu looked up as anusvara. */
function exceptionFor(nfc: string, language: RomanLanguage): string | undefined {
  return EXCEPTIONS[language][nfc.replaceAll(CHANDRABINDU, ANUSVARA)];
}

/**
 * Words already written, per language: a site's quotes share most of their
 * words, and a word costs ~10 µs (two lookups in the loanword table). Emptied
 * when full, so a long run holds at most this many.
 */
const WRITTEN_WORDS_KEPT = 20_000;
const written: Record<RomanLanguage, Map<string, string>> = { hindi: new Map(), marathi: new Map() };

/** One Devanagari word in Roman letters (lower case). */
export function romaniseWord(word: string, language: RomanLanguage): string {
  const kept = written[language];
  let romanised = kept.get(word);
  if (romanised === undefined) {
    if (kept.size >= WRITTEN_WORDS_KEPT) kept.clear();
    romanised = writeWord(word, language);
    kept.set(word, romanised);
  }
  return romanised;
}

const HINDI_OBLIQUE_PLURAL = "\u094B\u0902"; // ों
const FINAL_NASAL = /[\u0901\u0902]$/; // ँ ं
const AI_SIGN = "\u0948"; // ै

/**
 * Word-forming parts Hindi writers write as a word of their own, after a
 * stem (करण -isation, नगर town, नाथ, पुर, कार, कला, जनक) or before one (the
 * prefixes महा, प्र, उप, नि, वि): each part loses its schwas on its own, as a
 * Marathi word's endings do (अनुकरण anukaran, गांधीनगर gandhinagar, धर्मनाथ
 * dharmnath, प्रचलित prachalit, विवरण vivaran, निगमित nigamit). Chosen one by
 * one on the wide Hindi tune half: together +99 words of 15,205, 4 lost
 * (decision 084; ता, पन, त्व, स्थान, पुत्र, and the prefixes अ, सु, सम, कु, ना
 * lose words, and some 40 other parts change nothing).
 */
const HINDI_SUFFIXES = ["करण", "नगर", "नाथ", "पुर", "कार", "कला", "जनक"].sort((a, b) => b.length - a.length);
const HINDI_PREFIXES = ["महा", "प्र", "उप", "नि", "वि"];

/** A prefix is cut only before a rest of two syllables or more: वि श्क stays विश्क. */
function syllablesOf(word: string): number {
  return parse(word, "hindi").filter((u) => u.vowel !== "").length;
}

/**
 * A Hindi echo word: two syllables, then two more ending on the same
 * consonant, each consonant with its a (चमचमाती, खटखटाना, जगमगाहट, बकबक).
 * Its halves are words of their own, each losing its schwas on its own:
 * chamchamati, jagmagahat (the rules from the right wrote chamachmati).
 */
const HINDI_ECHO = /^([\u0915-\u0939]\u093C?)([\u0915-\u0939]\u093C?)[\u0915-\u0939]\u093C?\2(?!\u094D)/;

/**
 * A Hindi word cut into its echo word's first half (HINDI_ECHO), prefix,
 * stem and word-forming parts (HINDI_SUFFIXES, HINDI_PREFIXES).
 */
function hindiParts(word: string): string[] {
  const echo = HINDI_ECHO.exec(word);
  if (echo) {
    const half = (echo[1]?.length ?? 0) + (echo[2]?.length ?? 0);
    return [word.slice(0, half), ...hindiParts(word.slice(half))];
  }
  const [stem = word, ...parts] = cutEndings(word, HINDI_SUFFIXES);
  const prefix = HINDI_PREFIXES.find((part) => {
    if (!stem.startsWith(part)) return false;
    const rest = stem.slice(part.length);
    // The rest starts on a letter (not a vowel sign, virama or nasal of the prefix's last letter).
    return isLetter(rest) && syllablesOf(rest) >= 2;
  });
  return prefix === undefined ? [stem, ...parts] : [prefix, stem.slice(prefix.length), ...parts];
}

/** Whether text starts with a Devanagari consonant or independent vowel. */
function isLetter(text: string): boolean {
  const first = text[0];
  return first !== undefined && (CONSONANTS[first] !== undefined || VOWELS[first] !== undefined);
}

/**
 * Parts of words their writers spell otherwise than the letters say (decision
 * 086, each from the wide tune halves): a Hindi name's सिंह is singh
 * (उम्मेदसिंह ummedsingh; Marathi writers keep sinh), a Hindi place's गांव
 * gaon (गोरेगांव goregaon), a place's गढ़ garh (चंडीगढ chandigarh; the word
 * गढ़ alone stays gadh), and ठ्ठ tth (विठ्ठल vitthal): the wide tune halves
 * Hindi +23 words, 2 lost (देवगढ़ devgadh), Marathi +7, 1 lost. And English
 * words' spellings where ॉ or ै says the word is English (कॉ co, a final ैंड
 * and, a final मैन man): Hindi +14, Marathi +10, none lost.
 */
function asWritersSpell(nfc: string, ours: string, language: RomanLanguage): string {
  let out = ours;
  if (language === "hindi" && nfc.endsWith("सिंह")) out = out.replace(/sinh$/, "singh");
  if (language === "hindi" && /.गांव(?:ों)?$/.test(nfc)) out = out.replace(/ga*nv(on)?$/, "gaon$1");
  if (/.गढ़?$/.test(nfc)) out = out.replace(/gadh$/, "garh");
  if (nfc.includes("ठ्ठ")) out = out.replaceAll("thth", "tth");
  // English words' spellings, where ॉ or ै says the word is English: कॉर्प corp, थाईलैंड thailand, सुपरमैन superman.
  if (nfc.includes("कॉ") && !nfc.includes("को") && countOf(out, "ko") === countOf(nfc, "कॉ"))
    out = out.replaceAll("ko", "co");
  if (/ैंड्?स?$/.test(nfc)) out = out.replace(/aind(s?)$/, "and$1");
  if (nfc.endsWith("मैन") && syllablesOf(nfc) >= 3) out = out.replace(/main$/, "man");
  return out;
}

/** How many times `part` is in `text`. */
function countOf(text: string, part: string): number {
  return text.split(part).length - 1;
}

function writeWord(word: string, language: RomanLanguage): string {
  const nfc = word.normalize("NFC");
  const exception = exceptionFor(nfc, language);
  if (exception !== undefined) return exception;
  const initialism = initialismFor(word);
  if (initialism !== undefined) return initialism;
  let ours: string;
  if (language === "marathi") ours = romaniseMarathi(nfc);
  else {
    // Each part loses its schwas on its own; the vowels are written over the whole word.
    const units = hindiParts(nfc).flatMap((part) => {
      const partUnits = parse(part, language);
      dropSchwas(partUnits, language);
      return partUnits;
    });
    ours = romaniseUnits(units, language);
  }
  ours = asWritersSpell(nfc.replaceAll(CHANDRABINDU, ANUSVARA), ours, language);
  // An English word, written as English (decision 075): unless the rules already write one
  // said so. Rules that spell another word (फाइल fail, लाइट lait, साइड said) give way to
  // the English word a looking-English Devanagari word is said as (file, light,
  // side: +20 Hindi words of 15,205, decision 086); not where ै is written (the
  // rules' ai is how people write it: पैल pail) or the word ends in a nasal (मैं main).
  if (isCommonEnglishWord(ours)) {
    const said = FINAL_NASAL.test(nfc) || nfc.includes(AI_SIGN) ? [] : englishWordsSaidExactly(word);
    return said.length === 0 || said.includes(ours) ? ours : (said[0] as string);
  }
  // No English word ends in a nasal vowel: ों, ें, ां are Hindi endings (मतों is not mutton).
  const english = FINAL_NASAL.test(nfc) ? undefined : englishWordFor(word);
  if (english !== undefined) return english;
  // An English word with the Hindi oblique plural: पैकेजों packageon (+16 words of 15,205).
  if (
    language === "hindi" &&
    nfc.endsWith(HINDI_OBLIQUE_PLURAL) &&
    nfc.length > HINDI_OBLIQUE_PLURAL.length + 1
  ) {
    const stem = englishWordFor(nfc.slice(0, -HINDI_OBLIQUE_PLURAL.length), { short: false });
    if (stem !== undefined) return `${stem}on`;
  }
  return ours;
}

/** Devanagari text in Roman letters; the rest (Latin, punctuation, line breaks) as it is. */
export function romanise(text: string, language: RomanLanguage): string {
  let out = "";
  let word = "";
  const flush = () => {
    if (word !== "") out += romaniseWord(word, language);
    word = "";
  };
  for (const c of text.normalize("NFC")) {
    if (isWordChar(c)) {
      word += c;
      continue;
    }
    flush();
    const d = digit(c);
    if (d !== undefined) out += d;
    else if (c === "।") out += ".";
    else if (c === "॥") out += "||";
    else out += c;
  }
  flush();
  return out;
}

/** Whether a text holds any Devanagari letter (a post with none needs no Roman version). */
export function hasDevanagari(text: string): boolean {
  return /[\u0900-\u097F]/.test(text);
}

/** A post's quote in Roman letters, as its page shows it under the "Roman letters" toggle. */
export interface RomanQuote {
  lang: "hi-Latn" | "mr-Latn";
  title: string;
  /** The text with its line breaks (verses keep their lines). */
  text: string;
}

/**
 * The longest text given a Roman version. Quotes are a few hundred
 * characters (the demo's longest under 2,000); a post may hold 256 Ki
 * (decision 043), which would double the page and cost ~90 ms a render
 * (0.14 ms for 300 characters, measured). An essay is not a quote to follow
 * in chat letters, so it gets none.
 */
export const MAX_ROMAN_TEXT = 4_000;

/**
 * The Roman version of a Hindi or Marathi post (its title, its content's
 * HTML): null for English (its text never read), for a post with no
 * Devanagari, and past MAX_ROMAN_TEXT characters of text.
 */
export function romanQuote(language: string, title: string, html: string): RomanQuote | null {
  if (language !== "hindi" && language !== "marathi") return null;
  const plainText = htmlToText(html);
  if (plainText.length > MAX_ROMAN_TEXT) return null;
  if (!hasDevanagari(title) && !hasDevanagari(plainText)) return null;
  return {
    lang: language === "hindi" ? "hi-Latn" : "mr-Latn",
    title: romanise(title, language),
    text: romanise(plainText, language),
  };
}
