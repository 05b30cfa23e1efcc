// English words in Hindi and Marathi, written in Roman letters as English
// (decision 075): अकाउंटेंट accountant, इंटरव्यू interview, अंकल uncle. People who
// write Hindi in Roman letters spell a loanword as the English word, which no
// letter rule gives (the attested writers of the tune half wrote about a
// sixth of its words so). The table (english-loanwords.txt, made by
// scripts/make-loanwords.ts from the CMU Pronouncing Dictionary and the
// SUBTLEX-US word frequencies) gives, for the letters of the Devanagari
// spellings an English word's pronunciation suggests
// (app/search/english-pronunciation-map.ts), the most frequent English words
// said so; and lists the common English words themselves, so that a word the
// rules already write as English (grid, chip) stays as it is. Read on the
// first lookup, searched by bisection (sorted-lines-file.ts).
//
// Only words of MIN_LOANWORD_LETTERS or more, unless the Devanagari has ॉ or
// ॅ, or looks English and is said exactly as the English word (decision
// 086): a short English word sounds like too many Hindi ones (पति putty, एक
// ache, हरि hurry), and no table of Hindi words is here to tell them apart.

import { sortedLinesFile } from "#app/content/sorted-lines-file.ts";
import { CONSONANTS } from "#app/search/roman.ts";

/** Where the table lives, from the project's root. */
export const LOANWORDS_FILE = "app/content/english-loanwords.txt";
/** English words shorter than this are not looked up by sound alone (see above): on the tune halves, 4 and 5 lose the site's own words. */
export const MIN_LOANWORD_LETTERS = 6;
/**
 * Shorter English words are looked up for a Devanagari word written with ॉ
 * or ॅ, vowels Hindi and Marathi have only in English words (हॉल hall, कॉपी
 * * copy, बॅग bag: +25 Hindi, +3 Marathi words of the wide tune halves).
 */
export const MIN_MARKED_LOANWORD_LETTERS = 3;
const ENGLISH_VOWEL_SIGNS = /[\u0949\u0911\u0945\u090D]/; // ॉ ऑ ॅ ऍ
/**
 * A short English word is taken for a Devanagari word that looks English
 * (decision 086): a ट or ड (English t and d; Hindi's own are त and द), the
 * diphthongs ाइ ाउ ाय, ै, ॉ or ॅ, a start Hindi words rarely have (स्ट,
 * क्ल, ट्र… and the clusters क्र ग्र प्र ब्र फ्र), a final cluster (जस्ट,
 * कोल्ड; not one ending in थ व म ग य: अर्थ, सर्व, कर्म, मार्ग, कार्य), a start
 * on ई ओ ऐ ऑ or on ए with two letters more (एप्पल, not एक), यू, or a long
 * vowel before a final -र or -ल (फीवर, लोकल); and that has none of the
 * letters English words are not written with (the aspirates, ण ष ञ ङ, ौ, ऋ
 * and ृ, त द). A word of two letters is too short to tell (डर, पट, डे), but
 * with ॉ or ॅ. Each part chosen on the wide tune halves, alone and with the
 * others (every one removed in turn loses words).
 */
const ENGLISH_LOOKING =
  /[टड](?!\u093C)|ाइ|ाउ|ाय|ै|[ॉॅऑऍ]|^[ईओऐऑ]|^ए..|यू|[िीुूेो][कखगघचजझटडतथदधनपफबभमयलवशसह]र$|[िीुूेो][कगचजटडपफबमवस]ल$|^(?:स्ट|स्क|स्प|क्ल|प्ल|ब्ल|फ्ल|ग्ल|ट्र|ड्र|क्व|स्ल|स्न|स्म|स्व|क्र|ग्र|प्र|ब्र|फ्र)|्[^थवमगय][\u093E-\u094C]?$/;
const NOT_ENGLISH_LOOKING = /[णषठढछखघझधभौृऋञङतद]/;

/**
 * A Devanagari word of this many vowels or fewer (each inherent a counted)
 * is said as an English word, however long, only if it looks English or has
 * ॉ or ॅ: प्रीति is not pretty, चिता not cheetah, होली not wholly
 * (the wide tune halves: Hindi +18 words, 3 lost; Marathi +12, 2 lost; with
 * three vowels Hindi loses as many as it wins: मशीन, चिकन, रबर).
 */
const MAX_VOWELS_UNLESS_LOOKING_ENGLISH = 2;

/** Whether a Devanagari word looks like an English one (ENGLISH_LOOKING), three letters or more unless it has ॉ or ॅ. */
function looksEnglish(nfc: string): boolean {
  return (
    [...nfc].length >= (ENGLISH_VOWEL_SIGNS.test(nfc) ? 2 : 3) &&
    ENGLISH_LOOKING.test(nfc) &&
    !NOT_ENGLISH_LOOKING.test(nfc)
  );
}

/** Whether an English word's letters are exactly the Devanagari word's (no a left unsaid but a last one), ॉ and ो alike. */
function saidExactly(english: string, devanagari: string): boolean {
  const fold = (letters: string) => letters.replaceAll("O", "o");
  return (
    fold(english) === fold(devanagari) ||
    (devanagari.endsWith("a") && fold(english) === fold(devanagari.slice(0, -1)))
  );
}

/**
 * English words never written for a Devanagari word: profanity and slurs the
 * dictionary lists among its frequent words (निगर was written as a slur,
 * डिक and ऐस would be). A quote site shows the rules' letters instead.
 */
const NEVER_WRITTEN = new Set(
  `arse ass asses asshole bastard bastards bitch bitches bitchy bollocks boob boobs butt butts cock cocks crap crappy
  cunt damn damned dick dicks dildo dyke fag faggot fags fuck fucked fucker fucking fucks homo homos horny jerk
  nigga niggas nigger niggers penis piss pissed porn prick pussy rape raped rapist retard retarded screw shit
  shits shitty slut sluts tit tits twat vagina wank whore whores`.split(/\s+/),
);

/** Candidates a key keeps, most frequent first. */
export const MAX_LOANWORDS_A_KEY = 3;
/** The table's lines listing a common English word start with this (it sorts before every key). */
export const ENGLISH_WORD_MARK = "=";

/** Vowel signs as the letters pronunciationLetters writes for them (ा A, ै E, ॉ and ौ O). */
const SIGNS: Record<string, string> = {
  "\u093E": "A",
  "\u093F": "i",
  "\u0940": "i",
  "\u0941": "u",
  "\u0942": "u",
  "\u0943": "ri",
  "\u0945": "e",
  "\u0947": "e",
  "\u0948": "E",
  "\u0949": "O",
  "\u094B": "o",
  "\u094C": "O",
};

const VOWELS: Record<string, string> = {
  अ: "a",
  आ: "A",
  इ: "i",
  ई: "i",
  उ: "u",
  ऊ: "u",
  ऋ: "ri",
  ए: "e",
  ऐ: "E",
  ओ: "o",
  औ: "O",
  ऍ: "e",
  ऑ: "O",
};

/**
 * The letters of a Devanagari word as pronunciationLetters writes English
 * sounds, each consonant's inherent a written (a after every consonant with
 * no vowel sign and no virama); undefined for a word with a letter outside
 * the table.
 */
export function devanagariLetters(word: string): string | undefined {
  let out = "";
  let inherentA = false;
  for (const c of word.normalize("NFD")) {
    if (c === "\u093C") continue; // nukta
    if (c === "\u094D") {
      inherentA = false; // virama
      continue;
    }
    const consonant = CONSONANTS[c];
    if (consonant !== undefined) {
      if (inherentA) out += "a";
      out += consonant;
      inherentA = true;
      continue;
    }
    const sign = SIGNS[c];
    if (sign !== undefined) {
      out += sign;
      inherentA = false;
      continue;
    }
    if (inherentA) out += "a";
    inherentA = false;
    const vowel = VOWELS[c];
    if (vowel !== undefined) out += vowel;
    else if (c === "\u0902" || c === "\u0901") out += "n";
    else if (c === "\u0903") out += "h";
    else return undefined;
  }
  return inherentA ? `${out}a` : out;
}

/**
 * How a Devanagari spelling and an English pronunciation are compared: f for
 * ph, j for z, v for w, n for m before a labial, one of each doubled letter.
 * Vowel length of i and u is not told apart (loanwords spell it both ways);
 * ा, ै and ॉ are (the capitals), though ॉ and ो only after an exact match
 * failed (loanwordKey folds them: टेक्नोलॉजी has both for technology's o's).
 */
export function loanwordLetters(letters: string): string {
  return letters
    .replace(/ph/g, "f")
    .replace(/z/g, "j")
    .replace(/w/g, "v")
    .replace(/m(?=[pbf])/g, "n")
    .replace(/(.)\1+/g, "$1");
}

/** The table's key: the compared letters without an a but a first one (the inherent vowel is said or not). */
export function loanwordKey(letters: string): string {
  return loanwordLetters(letters)
    .replaceAll("O", "o")
    .replace(/(?!^)a/g, "");
}

/**
 * Whether an English word's letters are the Devanagari word's with some of
 * its a's not said: an English vowel needs one written (तर्क is not truck: its
 * र has no a), a written inherent a may be silent (इंटरनेशनल international).
 */
export function saidAsWritten(english: string, devanagari: string): boolean {
  let j = 0;
  for (let i = 0; i < english.length; ) {
    if (english[i] === devanagari[j]) {
      i++;
      j++;
    } else if (devanagari[j] === "a") j++;
    else return false;
  }
  for (; j < devanagari.length; j++) if (devanagari[j] !== "a") return false;
  return true;
}

const table = sortedLinesFile(LOANWORDS_FILE);

/** Whether a Latin word (lower case) is one of the table's common English words. */
export function isCommonEnglishWord(latinWord: string): boolean {
  return table.lookup(ENGLISH_WORD_MARK + latinWord) !== undefined;
}

/**
 * Letters that keep a word Hindi or Marathi, for every English path
 * (decision 086): a ण but before ट or ड (एण्टरटेनमेंट entertainment, हॅण्ड
 * hand; पोषण is not potion, वर्णन not vernon), and a त but after स (English
 * t is ट, and st स्त as often as स्ट: पिस्तौल pistol; तरक्की is not turkey,
 * सपत्नीक not sputnik). The wide tune halves: Hindi +7 words, none lost;
 * Marathi +5, 1 lost.
 */
const NATIVE_LETTERS = /ण(?!्[टड])|(?<!स्)त/;

/** A key's line as its candidates (`word:letters word:letters…`, most frequent first), never one NEVER_WRITTEN. */
function candidatesOf(line: string): [word: string, said: string][] {
  return line
    .split(" ")
    .map((candidate) => candidate.split(":") as [string, string])
    .filter(([word]) => !NEVER_WRITTEN.has(word));
}

/** The English word a Devanagari word is said as, if the table has one: its most frequent candidate said as written, else one of the same consonants (englishWordByConsonants). */
export function englishWordFor(
  devanagariWord: string,
  { short = true }: { short?: boolean } = {},
): string | undefined {
  const nfc = devanagariWord.normalize("NFC");
  if (NATIVE_LETTERS.test(nfc)) return undefined;
  const glideless = nfc.replace(GLIDE_AFTER_I, "");
  return (
    englishWordBySound(nfc, short) ??
    (glideless === nfc ? undefined : englishWordBySound(glideless, short)) ??
    englishWordByConsonants(nfc)
  );
}

/**
 * The y Hindi writes between an i and the vowel after it, which English does
 * not say: स्टूडियो studio (not study), रेडियो radio. A word is looked up
 * as written first (English says a y there too: million), then without it.
 */
const GLIDE_AFTER_I = /(?<=[\u093F\u0940])य(?=[\u093E\u094B\u0947])/g;

function englishWordBySound(devanagariWord: string, short: boolean): string | undefined {
  const letters = devanagariLetters(devanagariWord);
  if (letters === undefined || letters === "") return undefined;
  const compared = loanwordLetters(letters);
  const line = table.lookup(loanwordKey(letters));
  if (!line) return undefined;
  const marked = ENGLISH_VOWEL_SIGNS.test(devanagariWord);
  const looks = looksEnglish(devanagariWord.normalize("NFC"));
  // A word of two vowels or fewer (each inherent a counted) sounds like too many English words.
  if (!looks && !marked && (letters.match(/[aAeEiouO]/g) ?? []).length <= MAX_VOWELS_UNLESS_LOOKING_ENGLISH)
    return undefined;
  const shortTaken = short && looks;
  const allowed = candidatesOf(line).filter(
    ([word, said]) =>
      word.length >= MIN_LOANWORD_LETTERS || marked || (shortTaken && saidExactly(said, compared)),
  );
  // ॉ and ो as written first (हॉल hall, not whole), then either for the other (टेक्नोलॉजी technology).
  const exact = allowed.find(([, english]) => saidAsWritten(english, compared));
  if (exact) return exact[0];
  const folded = compared.replaceAll("O", "o");
  return allowed.find(([, english]) => saidAsWritten(english.replaceAll("O", "o"), folded))?.[0];
}

/** The English words said exactly as the Devanagari word (saidExactly), most frequent first, if it looks English. */
export function englishWordsSaidExactly(devanagariWord: string): string[] {
  const letters = devanagariLetters(devanagariWord);
  if (letters === undefined || letters === "" || !looksEnglish(devanagariWord.normalize("NFC"))) return [];
  const compared = loanwordLetters(letters);
  const line = table.lookup(loanwordKey(letters));
  if (!line) return [];
  return candidatesOf(line)
    .filter(([, said]) => saidExactly(said, compared))
    .map(([word]) => word);
}

/** The names of the Latin letters as Devanagari writes them (बी b, एच h, डब्ल्यू w). */
const LETTER_NAMES: [devanagari: string, latin: string][] = [
  ["ए", "a"],
  ["बी", "b"],
  ["सी", "c"],
  ["डी", "d"],
  ["ई", "e"],
  ["एफ", "f"],
  ["जी", "g"],
  ["एच", "h"],
  ["आई", "i"],
  ["जे", "j"],
  ["के", "k"],
  ["एल", "l"],
  ["एम", "m"],
  ["एन", "n"],
  ["ओ", "o"],
  ["पी", "p"],
  ["क्यू", "q"],
  ["आर", "r"],
  ["एस", "s"],
  ["टी", "t"],
  ["यू", "u"],
  ["वी", "v"],
  ["डब्ल्यू", "w"],
  ["एक्स", "x"],
  ["वाई", "y"],
  ["ज़ेड", "z"],
  ["जेड", "z"],
];

/**
 * Initialisms are two letters or more (टीवी tv, आईडी id: the wide tune halves
 * +67 Hindi words, +2 Marathi, decision 086), but for the Hindi and Marathi
 * words spelled with two letters' names: wife, lady, whistle, vaccines,
 * shell, a Marathi verse, sister, "come", lived, drank, sewn, "one" (एके
 * दिवशी). Two of them were in the wide tune halves (बीवी, ओवी); the others
 * are common words of the same shape.
 */
export const MIN_INITIALISM_LETTERS = 2;
const NOT_INITIALISMS = new Set([
  "बीवी",
  "बीबी",
  "सीटी",
  "टीके",
  "सीपी",
  "ओवी",
  "जीजी",
  "आईए",
  "जीए",
  "पीए",
  "सीए",
  "एके",
]);

/**
 * An initialism spelled out in letter names, in Latin letters (आईबीएम ibm,
 * एमएचआरडी mhrd: Hindi +170 words of 15,205, Marathi +69 of 28,728, none
 * lost); undefined for a word that is not all letter names.
 */
export function initialismFor(devanagariWord: string): string | undefined {
  const word = devanagariWord.normalize("NFC");
  if (NOT_INITIALISMS.has(word)) return undefined;
  const read = (at: number): string | undefined => {
    if (at === word.length) return "";
    for (const [name, letter] of LETTER_NAMES) {
      if (!word.startsWith(name, at)) continue;
      const rest = read(at + name.length);
      if (rest !== undefined) return letter + rest;
    }
    return undefined;
  };
  const letters = read(0);
  return letters !== undefined && letters.length >= MIN_INITIALISM_LETTERS ? letters : undefined;
}

// ---- Words said otherwise in India: the same consonants, vowels that may differ
//
// Hindi spells many English words with the vowels the English spelling
// suggests, not the American dictionary's (अप्लीकेशन application: अ for
// its æ; आर्टिकल article; इंग्लैंड england: ै for its unstressed a). When
// no pronunciation key matches, a word of MIN_SKELETON_CONSONANTS consonants
// or more is matched by its consonants alone, ट ड as English t d and त द थ
// as its th, and then its vowels, place by place, against the English ones:
// a stressed vowel must be one Devanagari writes for it, an unstressed one
// may be any short vowel or none (decision 078).

/** Lines of the table listing English words by consonant skeleton start with this (it sorts after every key). */
export const SKELETON_MARK = "~";
/** Consonants a word's skeleton needs: with three, Hindi words lose as many as English ones win (wide tune half: +344, −172). */
export const MIN_SKELETON_CONSONANTS = 4;
/**
 * Clusters Hindi words do not start with, English ones do (स्ट st, ट्र tr, क्ल
 * cl): after one, three consonants are enough (स्टाफ staff, ट्रिप trip; the wide
 * tune halves: Hindi +21, Marathi +5 words).
 */
const ENGLISH_START = /^(?:स्ट|स्क|स्प|क्ल|प्ल|ब्ल|फ्ल|ग्ल|ट्र|ड्र)/;
export const MIN_SKELETON_CONSONANTS_AFTER_AN_ENGLISH_START = 3;
/** Candidates a skeleton keeps, most frequent first. */
export const MAX_WORDS_A_SKELETON = 6;

/** Devanagari consonants as skeleton letters (pronunciationSkeleton); the aspirates, which English has not, as X. */
const SKELETON_LETTERS: Record<string, string> = {
  क: "k",
  ख: "X",
  ग: "g",
  घ: "X",
  ङ: "n",
  च: "c",
  छ: "X",
  ज: "j",
  झ: "j",
  ञ: "n",
  ट: "T",
  ठ: "X",
  ड: "D",
  ढ: "X",
  ण: "n",
  त: "t",
  थ: "t",
  द: "d",
  ध: "X",
  न: "n",
  प: "p",
  फ: "f",
  ब: "b",
  भ: "X",
  म: "m",
  य: "",
  र: "r",
  ल: "l",
  व: "v",
  श: "S",
  ष: "S",
  स: "s",
  ह: "h",
};

/** Vowel signs and vowels as slot letters: long and short i and u alike, ॅ as ै. */
const SLOT_SIGNS: Record<string, string> = { ...SIGNS, "\u0943": "r", "\u0945": "E" };
const SLOT_VOWELS: Record<string, string> = { ...VOWELS, ऋ: "r", ऍ: "E" };

/**
 * A Devanagari word's consonant skeleton and the vowel letters between its
 * consonants (as pronunciationSkeleton's): the inherent a written as a, none
 * after a virama; य is no consonant, and after ा it is the diphthong's i
 * (डायमंड diamond); a nasal sign is n, at the end of the word nothing (a
 * nasalised vowel). Undefined for a word with an aspirate, ड़ or ढ़, or a
 * letter outside the tables.
 */
export function devanagariSkeleton(word: string): { skeleton: string; slots: string[] } | undefined {
  let skeleton = "";
  const slots: string[] = [""];
  let inherentA = false;
  const chars = [...word.normalize("NFD")];
  const vowel = (letters: string) => {
    slots[slots.length - 1] += letters;
  };
  const consonant = (letter: string) => {
    if (skeleton.endsWith(letter) && slots.at(-1) === "") return;
    skeleton += letter;
    slots.push("");
  };
  for (const [i, c] of chars.entries()) {
    if (c === "\u093C") {
      if (chars[i - 1] === "ड" || chars[i - 1] === "ढ") return undefined;
      continue;
    }
    const letter = SKELETON_LETTERS[c];
    if (letter !== undefined) {
      if (letter === "X") return undefined;
      if (inherentA) vowel("a");
      if (c === "य" && chars[i - 1] === "\u093E" && chars[i + 1] !== "\u094D") {
        // ाय is the diphthong ai (ाइ), its y the second letter: डायमंड diamond, लायब्रेरी library.
        vowel("i");
        inherentA = false;
        continue;
      }
      inherentA = true;
      if (letter !== "") consonant(letter);
      continue;
    }
    if (c === "\u094D") {
      inherentA = false;
      continue;
    }
    const sign = SLOT_SIGNS[c];
    if (sign !== undefined) {
      inherentA = false;
      vowel(sign);
      continue;
    }
    if (inherentA) vowel("a");
    inherentA = false;
    const independent = SLOT_VOWELS[c];
    if (independent !== undefined) vowel(independent);
    else if (c === "\u0902" || c === "\u0901") {
      if (i < chars.length - 1) consonant("n");
    } else return undefined;
  }
  if (inherentA) vowel("a");
  return { skeleton: skeleton.replace(/m(?=[pb])/g, "n"), slots };
}

/** Letters Devanagari writes for a stressed English vowel (primary stress; secondary adds AE's अ: application). */
const STRESSED_VOWELS: Record<string, string> = {
  AA: "AOo",
  AE: "Ee",
  AH: "au",
  AO: "Oo",
  AW: "A",
  AY: "A",
  EH: "eE",
  EY: "eE",
  IH: "ie",
  IY: "i",
  OW: "oO",
  OY: "O",
  UH: "u",
  UW: "u",
};
const SECONDARY_VOWELS: Record<string, string> = { ...STRESSED_VOWELS, AE: "Eea" };
/** A diphthong's second letter, which must be written too (ाइ, ाउ). */
const SECOND_LETTER: Record<string, string> = { AY: "i", AW: "u" };
/** Unstressed vowels that keep their sound (and so their letter). */
const KEPT_UNSTRESSED: Record<string, string> = { IY: "i", UW: "u", OW: "oO" };

/** Whether a Devanagari word's vowels, place by place, may be an English pronunciation's (same skeleton). */
export function vowelsAgree(devanagari: readonly string[], english: readonly string[]): boolean {
  if (devanagari.length !== english.length) return false;
  for (const [i, written] of devanagari.entries()) {
    const phonemes = english[i]?.match(/[A-Z]+\d/g) ?? [];
    if (phonemes.length === 0) {
      // No vowel said: none written, or a consonant's inherent a (not a word's first vowel).
      if (written !== "" && (written !== "a" || i === 0)) return false;
      continue;
    }
    for (const phoneme of phonemes) {
      const sound = phoneme.slice(0, -1);
      if (phoneme.endsWith("0")) {
        const kept = KEPT_UNSTRESSED[sound];
        if (kept !== undefined) {
          if (![...written].some((letter) => kept.includes(letter))) return false;
          continue;
        }
        // An unstressed schwa may be any short vowel, ा or ै (the English letter a: अल्फ़ाबेट,
        // ग्रीनलैंड), or ो or ॉ (the letter o: इकोनॉमिक्स economics, नाइट्रोजन nitrogen).
        const allowed = sound === "AH" ? "aieuAEoO" : "aieu";
        if (written.length > 2 || ![...written].every((letter) => allowed.includes(letter))) return false;
        continue;
      }
      const allowed = (phoneme.endsWith("1") ? STRESSED_VOWELS : SECONDARY_VOWELS)[sound] ?? "";
      if (![...written].some((letter) => allowed.includes(letter))) return false;
      const second = SECOND_LETTER[sound];
      if (second !== undefined && !written.includes(second)) return false;
    }
  }
  return true;
}

/**
 * The most frequent English word of the Devanagari word's consonant skeleton
 * whose vowels agree with its own (vowelsAgree): आर्टिकल article,
 * अप्लीकेशन application.
 */
export function englishWordByConsonants(devanagariWord: string): string | undefined {
  const own = devanagariSkeleton(devanagariWord);
  const least = ENGLISH_START.test(devanagariWord.normalize("NFC"))
    ? MIN_SKELETON_CONSONANTS_AFTER_AN_ENGLISH_START
    : MIN_SKELETON_CONSONANTS;
  if (own === undefined || own.skeleton.length < least) return undefined;
  const line = table.lookup(SKELETON_MARK + own.skeleton);
  if (!line) return undefined;
  for (const candidate of line.split(" ")) {
    const [word, slots] = candidate.split(":") as [string, string];
    if (!NEVER_WRITTEN.has(word) && vowelsAgree(own.slots, slots.split("."))) return word;
  }
  return undefined;
}
