// Romanised search (decision 020): "prem" finds प्रेम. Converting the query to
// Devanagari fails on the inherent a (prem → प्रेम्), so both sides go the
// other way: each indexed Devanagari word and each Latin query word become a
// loose Latin skeleton, and skeletons are compared. The skeleton drops what
// romanised spellings disagree on: vowel length (aa/a, ee/i, oo/u), every a
// after the first letter (so the inherent a and schwa deletion stop
// mattering), aspiration (bh/b, sh/s), doubled letters, and merges z/j, f/ph,
// w/v, q/k, dny/gy/jn (ज्ञ).

import { MIN_PRONOUNCED_LETTERS, pronunciationSkeletons } from "#app/search/english-pronunciation.ts";

export const CONSONANTS: Record<string, string> = {
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
/** Spellings a query word is read in at most (roman.ts, the query side). */
const MAX_SPELLINGS = 24;

/**
 * A folded Devanagari word spelled in plain Latin letters, with the
 * placeholders R, D, N and H where two spellings are common.
 */
function transliterate(word: string): string {
  const chars = Array.from(word);
  let out = "";
  let inherentA = false;
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i];
    if (c === undefined) break; // not reached: i is inside chars
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

// ---------------------------------------------------------------- the query side (decision 037)
// People romanise a word in more ways than the skeleton absorbs. Rather than
// widen the index (stored skeletons are the same in every database), a Latin
// query word is also read in the spellings these habits stand for, and each
// spelling's skeleton is looked up: the word itself, every habit at once, the
// English habits at once, then each habit by itself (a rule marked `alone` is
// never combined, only applied to the word and to its English reading). Found
// on the tune halves of attested lexicons (tests/fixtures/romanised), measured
// on the held-out halves (docs/search.md).

/** Consonants after which an h is not aspiration (rha, lha…): the h is a ह after an unwritten a. */
const PLAIN_BEFORE_H = /([rlmnvwy])h(?=[aeiou]|$)/g;

/** Each spelling with one occurrence of `pattern` replaced (ऋ is one letter of a word, not every ra). */
function eachOccurrence(word: string, pattern: RegExp, replacement: string): string[] {
  return [...word.matchAll(pattern)].map(
    (match) => word.slice(0, match.index) + replacement + word.slice(match.index + match[0].length),
  );
}

/** A rule: the spelling(s) a habit stands for, or the word unchanged when it does not apply. */
type Rule = (w: string) => string | string[];

/** Rules whose spelling is looked up by itself only, never combined with the others. */
const ALONE = new WeakSet<Rule>();
function alone(rule: Rule): Rule {
  ALONE.add(rule);
  return rule;
}

/** How people romanise Hindi and Marathi words (found on the tune half of the lexicons). */
const INDIC_RULES: Rule[] = [
  // h moving or vanishing: yeh, woh, pehle, kehte (यह वह पहले कहते).
  (w) => w.replace(/[eo]h(?=[^aeiouh]|$)/g, "ah"),
  // rha, lha: रहा.
  (w) => w.replace(PLAIN_BEFORE_H, "$1ah"),
  // An aspirate before ह: mashhoor, arthheen (मशहूर अर्थहीन).
  (w) => w.replace(/([bcdgjkpst]h)h/g, "$1ah"),
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
  // म before b, p, s, h whose a is not written (rambhakt, himpat, shivrampant:
  // रामभक्त हिमपात शिवरामपंत): an m the skeleton would take for an anusvara.
  (w) => w.replace(/(?<=.)m(?=[bpsh])/g, "ma"),
  // An anusvara before v written m: samvad, samvidhan (संवाद संविधान).
  (w) => w.replace(/(?<=[aeiou])m(?=v)/g, "n"),
  // gn, jn that are not ज्ञ: magnya, lagnyasathi, rajniti (मागण्या लागण्यासाठी राजनीति).
  (w) => w.replace(/(?<=.)([gj])n(?=[aeiouy])/g, "$1an"),
  // व after a vowel written o: gaon, rao, undargaoche (गाव राव उंदरगावचे).
  (w) => w.replace(/ao(n?)(?=[^aeiou]|$)/g, "av"),
  // औ written ou or ow: chowk, gouda, charchoughi (चौक गौडा चारचौघी).
  (w) => w.replace(/o[uw](?=[^aeiou]|$)/g, "au"),
  // मध्ये written madhe.
  (w) => w.replace(/dhe(?=$|[^aeiou])/g, "dhye"),
  // ळ written d after a vowel: midavale, moodvyadh (मिळवले मूळव्याध).
  alone((w) => (w.length >= 5 ? eachOccurrence(w, /(?<=[aeiou])d(?=a?v|t)/g, "l").slice(0, 2) : w)),
  // A y between i and a vowel left out: dunia, jamiat, ethiopia (दुनिया जमियत इथियोपिया).
  (w) => w.replace(/(?<=[^aeiou])i(?=[aeou])/g, "iy"),
  // ै written e in a first syllable before s and a vowel, alone: kese, pesa (कैसे पैसा); not
  // before other letters (dena, mela, dekh are देना मेला देख, not दिन मिला दिख).
  alone((w) => w.replace(/^([^aeiou]+)e(?=s[aeiou])/, "$1ai")),
  // ै written ae before a consonant: kaethal, baethak (कैथल बैठक).
  (w) => w.replace(/ae(?=[^aeiou])/g, "ai"),
  // ों written oon at the end: ladkoon, kishoroon (लड़कों किशोरों).
  (w) => w.replace(/oon$/, "on"),
  // अ before ह written e: jehaz, pehan (जहाज़ पहन).
  (w) => w.replace(/eh(?=[aeiou])/g, "ah"),
];

/** English spellings of English words and names written in Devanagari (कैबिनेट, ऑपरेशन, इंजेक्टर). */
const ENGLISH_RULES: Rule[] = [
  // -ically, -ally and (in a longer word) -age: इकली, अली, एज (magically, totally, village).
  (w) =>
    w
      .replace(/ically$/, "ikli")
      .replace(/(?<=.)ally$/, "ali")
      .replace(/(?<=.{3})age(?=s?$)/, "ej"),
  // A vowel before m or n and a consonant, said as अ: company, conversion, frontier (कंपनी कंवर्शन फ्रंटियर).
  (w) => w.replace(/o(?=[mn][^aeiouy])/g, "a"),
  // An unstressed vowel before a final m or n: canon, token, platinum (कैनन टोकन प्लैटिनम).
  (w) => (w.length >= 5 ? w.replace(/(?<=[^aeiou])[eou](?=[mn]s?$)/, "a") : w),
  // ie as ई, or ए before a consonant: movie, briefing, friend (मूवी ब्रीफिंग फ्रेंड); a final
  // -jie is Hindi ए (dijie, kijie: दीजिए कीजिए, not दिज़ाइन).
  (w) =>
    [w.replace(/ie(?!$)|(?<=[^aeioujy])ie$/g, "i"), w.replace(/ie(?=[^aeiou])/g, "e")].filter((v) => v !== w),
  // A final y after a consonant: ई (happy, nursery: हैप्पी नर्सरी).
  (w) => w.replace(/(?<=[^aeiou])y$/, "i"),
  // u for the inherent a before a consonant cluster or at the end (bus, such,
  // pundit, subki: बस सच पंडित सबकी), a silent final e (more, kathore: मोर कठोर),
  // each alone (Hindi and Marathi u and e are mostly real: buddhi, mulache);
  // aun for ों (dusraun).
  alone((w) => w.replace(/u(?=[^aeiou](?:[^aeiou]|$))/g, "a")),
  alone((w) => w.replace(/(?<=[^aeiouy])e$/, "")),
  (w) => w.replace(/aun$/, "on"),
  // ए and ओ at the end written as English would: hay, joe, joo, howe (हे जो हो).
  (w) => w.replace(/ay$/, "e").replace(/(?:oo|o)w?e$|oo$/, "o"),
  // An unstressed e before a final l, n or s: channels, label (चॅनल्स लेबल).
  (w) => (w.length >= 6 ? w.replace(/(?<=[^aeiou])e(?=[ln]s?$)/, "a") : w),
  // A soft c: s (cyber, licence, acids).
  (w) => w.replace(/c(?=[eiy])/g, "s"),
  // A soft g: j (logic, neurosurgeon; at the start only alone: gentry, geneva).
  (w) => w.replace(/(?<=.)g(?=[eiy])/g, "j"),
  alone((w) => (w.length >= 6 ? w.replace(/^g(?=e[^aeiou]|y)/, "j") : w)),
  // ur and ir before a consonant as र्: burke, firmly (बर्क फर्मली).
  (w) => (w.length >= 5 ? w.replace(/(?<=[^aeiou])[ui]r(?=[^aeiouy])/g, "ar") : w),
  // English i as आय after a first consonant: titan, bikes (टायटन बाइक्स).
  alone((w) => (w.length >= 5 ? w.replace(/^([^aeiou]+)i(?=[^aeiou][aeiou])/, "$1ay") : w)),
  // -tion, -sion, -ation: शन, एशन (conversion, operation).
  (w) => [w.replace(/s?[st]ion/g, "shan"), w.replace(/ation/g, "eshan")].filter((v) => v !== w),
  // -able: एबल (table, approachable).
  (w) => w.replace(/able/g, "ebal"),
  // ou as अ: country, couple, young (कंट्री कपल यंग).
  alone((w) => (w.length >= 5 ? w.replace(/ou(?=[^aeiou])/g, "a") : w)),
  // -ture: चर (overture, literature).
  (w) => w.replace(/ture/g, "char"),
  // y as a vowel between consonants: i (olympic, crypto, gypsy).
  (w) => w.replace(/(?<=[^aeiou])y(?=[^aeiou])/g, "i"),
  // -er, -or, -our: र (killer, donor, injector).
  (w) => (w.length >= 5 ? w.replace(/(?<=[^aeiou])(?:e|o|ou)r(?=[^aeiou]|$)/g, "ar") : w),
  // A magic e: grade, climate, shave (ग्रेड क्लाइमेट शेव); not with the others (Marathi -ache, -ale).
  alone((w) => w.replace(/a([^aeiou])e$/, "e$1")),
  // A first vowel as English says it: economics, eater, area, agreement, idol, austria
  // (इकोनॉमिक्स ईटर एरिया एग्रीमेंट आइडल ऑस्ट्रिया).
  (w) =>
    [
      w.replace(/^ea|^e(?=[^aeiou])/, "i"),
      w.replace(/^a(?=[^aeiou])/, "e"),
      w.replace(/^i(?=[^aeiou])/, "ai"),
      w.replace(/^a[uw]/, "o"),
    ].filter((v) => v !== w),
  // ea, a final ey, aw and au, ew and eu as English says them: meaning, jersey,
  // lawful, new, euro (मीनिंग जर्सी लॉफुल न्यू यूरो).
  (w) =>
    w
      .replace(/(?<=.)ea/g, "i")
      .replace(/ey$/, "i")
      .replace(/a[uw](?=[^aeiou]|$)/g, "o"),
  (w) => w.replace(/e[uw]/g, "yu"),
  // qu: kv (equity).
  (w) => w.replace(/qu/g, "kv"),
  // English a as ै (Hindi) or ॅ (Marathi) after a first consonant: cabinet,
  // magic, channel (कैबिनेट मैजिक चॅनल); and as ॅ later on: tarmac, webpack (टारमॅक वेबपॅक).
  alone((w) =>
    w.length >= 5
      ? [
          w.replace(/^([^aeiou]+)a(?=[^aeiou])/, "$1ai"),
          w.replace(/^([^aeiou]+)a(?=[^aeiou])/, "$1e"),
        ].filter((v) => v !== w)
      : w,
  ),
  alone((w) => (w.length >= 5 ? eachOccurrence(w, /(?<=[^aeiou].)a(?=[^aeiou])/g, "e").slice(0, 2) : w)),
  // English e as ई: peter, medium, telescope (पीटर मीडियम टेलिस्कोप).
  alone((w) =>
    w.length >= 5 ? eachOccurrence(w, /(?<=[^aeiou])e(?=[^aeiou][aeiou])/g, "i").slice(0, 2) : w,
  ),
  // English a before l as ॉ: football, waltz, hall (फुटबॉल वॉल्ट्ज़ हॉल).
  (w) => (w.length >= 4 ? w.replace(/(?<=[^aeiou])a(?=ll|l[^aeiouy])/g, "o") : w),
  // Mc: मैक or मॅक (mcdonald).
  (w) => [w.replace(/^mc/, "maik"), w.replace(/^mc/, "mek")].filter((v) => v !== w),
  // ch before r or l: k (character, chlorine).
  (w) => w.replace(/ch(?=[rl])/g, "k"),
];

/** The spellings a Latin query word may stand for, itself first; at most MAX_SPELLINGS. */
export function romanisedSpellings(latinWord: string): string[] {
  const word = latinWord.toLowerCase().replace(/[^a-z]/g, "");
  if (word === "") return [];
  // Every habit at once, and the English ones alone, then each habit by itself.
  const cumulative = (rules: readonly Rule[]) => {
    let all = word;
    for (const rule of rules) {
      if (ALONE.has(rule)) continue;
      const applied = [rule(all)].flat();
      all = applied[applied.length - 1] || all;
    }
    return all;
  };
  const english = cumulative(ENGLISH_RULES);
  const spellings = new Set([word, cumulative([...INDIC_RULES, ...ENGLISH_RULES]), english]);
  // Every English habit at once, the lone ones too (maximum, vaccine: मैक्सिमम वॅक्सीन).
  let everyEnglish = word;
  for (const rule of ENGLISH_RULES) everyEnglish = [rule(everyEnglish)].flat().at(-1) || everyEnglish;
  spellings.add(everyEnglish);
  for (const rule of [...INDIC_RULES, ...ENGLISH_RULES]) {
    for (const changed of [rule(word)].flat()) if (changed !== "") spellings.add(changed);
    // A rule that stands alone also applies to the English reading (dimers: demers as डिमर्स).
    if (ALONE.has(rule))
      for (const changed of [rule(english)].flat()) if (changed !== "") spellings.add(changed);
  }
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
  // An English word written as it is said (governor: गवर्नर): english-pronunciation.ts.
  const said = pronunciationSkeletons(word);
  for (const skeleton of said) skeletons.add(skeleton);
  // An English word with a Marathi or Hindi ending written on (operationmadhye: ऑपरेशनमध्ये).
  if (said.length === 0) for (const skeleton of suffixedPronunciationSkeletons(word)) skeletons.add(skeleton);
  return [...skeletons];
}

// ------------------------------------------- English words with Indic endings
// Marathi writes its postpositions and case endings on the word (ऑपरेशनमध्ये,
// कॉलेजला, बॅकस्टेजवाल्यांनाही), Hindi some of them (फिल्मों, टीचरवाला), and an
// English word takes a Devanagari plural or oblique ending (टीचर्स, फिल्मों,
// डॉक्टरांना). A romanised query writes the same word in one (operationmadhye),
// which the pronunciation route cannot look up whole. A query word that is an
// English stem of MIN_PRONOUNCED_LETTERS or more letters followed by one to
// MAX_ENDINGS endings of this list is also read as the stem's pronounced
// skeletons followed by the endings' own skeleton. The endings are recognised
// by skeleton, as the index computes it from their Devanagari, so kadoon and
// kadun, war and var are one ending.

/** Endings written on a word, in Devanagari: Marathi, then Hindi. */
const ENDINGS = [
  // Marathi case endings and postpositions.
  ..."ला ना ने नी चा ची चे च्या त ही च स ंना ंनी ंचा ंची ंचे ंच्या ंत".split(" "),
  ..."कडे कडून कडचा कडची कडचे मध्ये मधे मधून मधला मधली मधले वर वरून वरचा वरची वरचे".split(" "),
  ..."तून पासून पर्यंत साठी मुळे सुद्धा सारखा सारखी सारखे बरोबर विषयी प्रमाणे शिवाय नाही".split(" "),
  ..."समोर जवळ ऐवजी जागी नंतर पूर्वी बद्दल सोबत पेक्षा खाली".split(" "),
  ..."वाला वाली वाले वाल्या वाल्यां वाल्यांना वाल्यांनी वाल्यांचा वाल्यांची वाल्यांचे".split(" "),
  // Hindi postpositions and plural endings.
  ..."का की के को से में पर तक भी वालों ों ओं".split(" "),
];
/** At most this many endings after a stem (backstage + valyan + nahi). */
const MAX_ENDINGS = 3;
/** At most this many English stems a query word is read with (the longest first). */
const MAX_STEMS = 2;
/** At most this many skeletons the endings add to a query word. */
const MAX_SUFFIXED = 8;

let endingSkeletons: string[] | undefined;
/** The endings' skeletons as written after a consonant: a leading a (the inherent vowel, ा) goes. */
function endings(): string[] {
  endingSkeletons ??= [
    ...new Set(
      ENDINGS.flatMap((ending) => devanagariSkeletons(ending)).map((k) =>
        k.startsWith("a") ? k.slice(1) : k,
      ),
    ),
    // A vowel alone (ों as o) would split too many words.
  ].filter((k) => k !== "" && !/^[aeiou]$/.test(k));
  return endingSkeletons;
}

/** Whether a skeleton is one to `left` endings in a row (a letter two endings share at the seam is written once). */
function isEndings(skeleton: string, left: number, previous = ""): boolean {
  if (skeleton === "") return previous !== "";
  if (left === 0) return false;
  return endings().some((ending) => {
    const written = previous !== "" && ending[0] === previous.at(-1) ? ending.slice(1) : ending;
    return (
      written !== "" &&
      skeleton.startsWith(written) &&
      isEndings(skeleton.slice(written.length), left - 1, ending)
    );
  });
}

/** The skeletons of an English stem said as it is, followed by the Indic endings written on it. */
export function suffixedPronunciationSkeletons(word: string): string[] {
  const out = new Set<string>();
  let stems = 0;
  for (let cut = word.length - 1; cut >= MIN_PRONOUNCED_LETTERS && stems < MAX_STEMS; cut--) {
    let ending = latinSkeleton(word.slice(cut));
    if (ending.startsWith("a")) ending = ending.slice(1);
    if (!isEndings(ending, MAX_ENDINGS)) continue;
    const said = pronunciationSkeletons(word.slice(0, cut));
    if (said.length === 0) continue;
    stems++;
    for (const stem of said) out.add((stem + ending).replace(/(.)\1+/g, "$1"));
  }
  return [...out].slice(0, MAX_SUFFIXED);
}

// ------------------------------------------------------ two-letter words and initialisms
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
/** Letters as their names are written in Devanagari, for initialisms (imd, nsspg: आईएमडी एनएसएसपीजी). */
const LETTER_NAMES: Record<string, string[]> = {
  a: ["ए"],
  b: ["बी"],
  c: ["सी"],
  d: ["डी"],
  e: ["ई"],
  f: ["एफ"],
  g: ["जी"],
  h: ["एच"],
  i: ["आई", "आय"],
  j: ["जे"],
  k: ["के"],
  l: ["एल"],
  m: ["एम"],
  n: ["एन"],
  o: ["ओ"],
  p: ["पी"],
  q: ["क्यू"],
  r: ["आर"],
  s: ["एस"],
  t: ["टी"],
  u: ["यू"],
  v: ["वी", "व्ही"],
  w: ["डब्ल्यू"],
  x: ["एक्स"],
  y: ["वाई", "वाय"],
  z: ["जेड", "झेड"],
};
/** Initialisms are spelled out up to this many letters, in at most MAX_INITIALISMS ways. */
const MAX_INITIALISM_LETTERS = 6;
const MAX_INITIALISMS = 8;

/**
 * A word of 2–6 letters read as an initialism, letter by letter: the whole
 * words it may be in Devanagari (rca, lbw: आरसीए एलबीडब्ल्यू). None for a run of
 * one letter (zzzz).
 */
export function initialismSpellings(latinWord: string): string[] {
  const word = latinWord.toLowerCase();
  if (!/^[a-z]{2,}$/.test(word) || word.length > MAX_INITIALISM_LETTERS || /^(.)\1+$/.test(word)) return [];
  let spellings = [""];
  for (const letter of word) {
    const names = LETTER_NAMES[letter];
    if (names === undefined)
      throw new Error(`initialismSpellings: no Devanagari name for the letter ${letter}`);
    spellings = spellings.flatMap((s) => names.map((name) => s + name)).slice(0, MAX_INITIALISMS);
  }
  return spellings;
}

/** The spellings a table gives one part of a short word (a matched group); none for a part it lacks. */
function shortPart(table: Record<string, string[]>, part: string | undefined): string[] {
  return part === undefined ? [] : (table[part] ?? []);
}

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
    for (const first of shortPart(SHORT_CONSONANTS, closedSyllable[1]))
      for (const sign of shortPart(SHORT_SIGNS, closedSyllable[2]))
        for (const last of shortPart(SHORT_CONSONANTS, closedSyllable[3]))
          spellings.push(first + sign + last);
  }
  const open = CONSONANT_VOWEL.exec(word);
  if (open) {
    for (const consonant of shortPart(SHORT_CONSONANTS, open[1]))
      for (const sign of shortPart(SHORT_SIGNS, open[2]))
        spellings.push(consonant + sign, `${consonant + sign}\u0902`);
  }
  const closed = VOWEL_CONSONANT.exec(word);
  if (closed) {
    for (const vowel of shortPart(SHORT_VOWELS, closed[1]))
      for (const consonant of shortPart(SHORT_CONSONANTS, closed[2])) spellings.push(vowel + consonant);
  }
  return [...new Set([...spellings, ...initialismSpellings(word)])];
}
