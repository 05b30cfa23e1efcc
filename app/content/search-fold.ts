// The one folding function of search (issue 4): the index and the query both
// pass through foldText, so whatever it merges, both sides merge alike.

const VIRAMA = "\u094D";
const ANUSVARA = "\u0902";
const CHANDRABINDU = "\u0901";
const NUKTA = "\u093C";
const VISARGA = "\u0903";

/** Devanagari consonants (क … ह, and the extended ones). */
const CONSONANT = "[\\u0915-\\u0939\\u0978-\\u097F]";

// Combining accents of Latin (and Greek, Cyrillic) letters: café → cafe. Devanagari
// signs live in U+0900–U+097F and are never stripped.
const LATIN_MARKS = /[\u0300-\u036F\u1AB0-\u1AFF\u1DC0-\u1DFF\u20D0-\u20FF\uFE20-\uFE2F]/g;
// Invisible format characters: ZWJ/ZWNJ, bidi marks and isolates, soft hyphen, BOM.
const FORMAT = /\p{Cf}/gu;
const APOSTROPHE_IN_WORD = /(?<=[\p{L}\p{M}\p{N}])['’‘`´ʼ](?=[\p{L}\p{M}])/gu;
// A half nasal before a consonant is written as anusvara just as often:
// शान्ति/शांति, हिन्दी/हिंदी, सम्बन्ध/संबंध, पण्डित/पंडित, अङ्ग/अंग, चञ्चल/चंचल.
const HALF_NA = new RegExp(`(?<=[\\u0900-\\u097F])\\u0928\\u094D(?=${CONSONANT})`, "g");
const HALF_NASAL_OF_CLASS =
  /(?<=[\u0900-\u097F])(?:\u0919\u094D(?=[\u0915-\u0918])|\u091E\u094D(?=[\u091A-\u091D])|\u0923\u094D(?=[\u091F-\u0922])|\u092E\u094D(?=[\u092A-\u092D]))/g;
// दुःख/दुख: a visarga inside a word is often left out.
const INNER_VISARGA = new RegExp(`${VISARGA}(?=${CONSONANT})`, "g");
// जगत्/जगत, भगवान्/भगवान: a final virama is often left out.
const FINAL_VIRAMA = /\u094D(?![\p{L}\p{M}\p{N}])/gu;
const DEVANAGARI_DIGIT = /[\u0966-\u096F]/g;
const NON_WORD = /[^\p{L}\p{M}\p{N}]+/gu;

const LATIN_SPECIAL: Record<string, string> = {
  ß: "ss",
  æ: "ae",
  œ: "oe",
  ø: "o",
  đ: "d",
  ð: "d",
  þ: "th",
  ł: "l",
  ı: "i",
};
const LATIN_SPECIAL_RE = /[ßæœøđðþłı]/g;

/**
 * Search folding: compatibility-normalised (NFKC), lower case, Latin accents
 * removed, nukta forms folded to their base (ज़ → ज), chandrabindu to anusvara,
 * a half nasal before a consonant to anusvara, Devanagari digits to 0–9,
 * invisible format characters dropped. Returns the words separated by single
 * spaces: letters, marks and digits only, so the text can never be query syntax.
 */
export function foldText(text: string): string {
  return text
    .normalize("NFKD")
    .toLowerCase()
    .replace(LATIN_MARKS, "")
    .replaceAll(NUKTA, "")
    .replace(FORMAT, "")
    .normalize("NFC")
    .replace(LATIN_SPECIAL_RE, (c) => LATIN_SPECIAL[c] ?? c)
    .replaceAll(CHANDRABINDU, ANUSVARA)
    .replace(HALF_NA, ANUSVARA)
    .replace(HALF_NASAL_OF_CLASS, ANUSVARA)
    .replace(INNER_VISARGA, "")
    .replace(FINAL_VIRAMA, "")
    .replace(DEVANAGARI_DIGIT, (d) => String(d.charCodeAt(0) - 0x0966))
    .replace(APOSTROPHE_IN_WORD, "")
    .replace(NON_WORD, " ")
    .trim();
}

/** The folded words of `text`, in order, duplicates kept. */
export function foldWords(text: string): string[] {
  const folded = foldText(text);
  return folded === "" ? [] : folded.split(" ");
}

const DEVANAGARI = /[\u0900-\u097F]/;

export function hasDevanagari(text: string): boolean {
  return DEVANAGARI.test(text);
}

/** Distinct words of an already folded text. */
export function distinctWords(folded: string): string[] {
  return folded === "" ? [] : [...new Set(folded.split(" "))];
}

export function codePoints(text: string): number {
  let n = 0;
  for (const _ of text) n++;
  return n;
}
