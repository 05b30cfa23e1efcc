// The one folding function of search (decision 020): the index and the query both
// pass through foldText, so whatever it merges, both sides merge alike.

const ANUSVARA = "\u0902";
const CHANDRABINDU = "\u0901";
const NUKTA = "\u093C";
const VISARGA = "\u0903";

/** Devanagari consonants (क … ह, and the extended ones). */
const CONSONANT = "[\\u0915-\\u0939\\u0978-\\u097F]";

// Combining accents of Latin (and Greek, Cyrillic) letters: café → cafe; and
// emoji variation selectors. Devanagari signs live in U+0900–U+097F and are
// never stripped.
const LATIN_MARKS =
  /[\u0300-\u036F\u1AB0-\u1AFF\u1DC0-\u1DFF\u20D0-\u20FF\uFE00-\uFE0F\uFE20-\uFE2F]|\uDB40[\uDD00-\uDDEF]/g;
// Invisible format characters: ZWJ/ZWNJ, bidi marks and isolates, soft hyphen, BOM.
const FORMAT = /\p{Cf}/gu;
const APOSTROPHE = /['’‘`´ʼ]/;
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
const DEVANAGARI = /[\u0900-\u097F]/;
// Printable ASCII and ordinary white space (control characters take the long way).
const ASCII = /^[ -~\t\n\r]*$/;
const ASCII_NON_WORD = /[^a-z0-9]+/g;

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
  // Plain ASCII (most English text) needs only the last steps.
  if (ASCII.test(text)) {
    const lower = text.toLowerCase();
    return (APOSTROPHE.test(lower) ? lower.replace(APOSTROPHE_IN_WORD, "") : lower)
      .replace(ASCII_NON_WORD, " ")
      .trim();
  }
  let folded = text
    .normalize("NFKD")
    .toLowerCase()
    .replace(LATIN_MARKS, "")
    .replaceAll(NUKTA, "")
    .replace(FORMAT, "")
    .normalize("NFC")
    .replace(LATIN_SPECIAL_RE, (c) => LATIN_SPECIAL[c] ?? c);
  if (DEVANAGARI.test(folded)) {
    folded = folded
      .replaceAll(CHANDRABINDU, ANUSVARA)
      .replace(HALF_NA, ANUSVARA)
      .replace(HALF_NASAL_OF_CLASS, ANUSVARA)
      .replace(INNER_VISARGA, "")
      .replace(FINAL_VIRAMA, "")
      .replace(DEVANAGARI_DIGIT, (d) => String(d.charCodeAt(0) - 0x0966));
  }
  if (APOSTROPHE.test(folded)) folded = folded.replace(APOSTROPHE_IN_WORD, "");
  return wordsOnly(folded);
}

const WORD_CHAR = /^[\p{L}\p{M}\p{N}]$/u;

/**
 * The runs of letters, marks and digits, joined by single spaces: the same as
 * replacing /[^\p{L}\p{M}\p{N}]+/gu with " " and trimming, but without the
 * regular expression for ASCII and Devanagari, which is most of the text.
 */
function wordsOnly(text: string): string {
  const words: string[] = [];
  let start = -1;
  for (let i = 0; i < text.length; ) {
    const c = text.charCodeAt(i);
    let size = 1;
    let word: boolean;
    if (c < 0x80) word = (c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a);
    else if (c >= 0x0900 && c <= 0x097f) word = c !== 0x0964 && c !== 0x0965 && c !== 0x0970;
    else {
      // codePointAt is only undefined past the end, which i never is.
      const point = String.fromCodePoint(text.codePointAt(i) ?? c);
      size = point.length;
      word = WORD_CHAR.test(point);
    }
    if (word && start < 0) start = i;
    else if (!word && start >= 0) {
      words.push(text.slice(start, i));
      start = -1;
    }
    i += size;
  }
  if (start >= 0) words.push(text.slice(start));
  return words.join(" ");
}

/** The half nasals HALF_NA and HALF_NASAL_OF_CLASS write as anusvara. */
const HALF_NASALS = ["\u0928\u094D", "\u0919\u094D", "\u091E\u094D", "\u0923\u094D", "\u092E\u094D"];

/**
 * The other forms a word of a whole text's fold may have when folded alone:
 * a half nasal that begins a word right after a danda is written as an
 * anusvara in the whole text (।न्न्: ंन), which the word alone has nothing
 * before it to turn (न्न). None for any other word.
 */
export function foldedAlone(foldedWord: string): string[] {
  return foldedWord.startsWith(ANUSVARA) ? HALF_NASALS.map((half) => half + foldedWord.slice(1)) : [];
}

/** The folded words of `text`, in order, duplicates kept. */
export function foldWords(text: string): string[] {
  const folded = foldText(text);
  return folded === "" ? [] : folded.split(" ");
}

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
