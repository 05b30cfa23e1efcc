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
  if (latinWord.length < MIN_ROMAN_LETTERS) return false;
  const query = latinSkeleton(latinWord);
  if (query === "") return false;
  return devanagariSkeletons(foldedDevanagariWord).some(
    (skeleton) => skeleton === query || (query.length >= MIN_ROMAN_PREFIX && skeleton.startsWith(query)),
  );
}
