// English words written in Devanagari the way they are said (decision 037):
// governor → गवर्नर, character → कैरेक्टर, visitor → विझिटर. English spelling is
// not phonetic, so the spelling habits of roman.ts cannot reach them;
// the word's pronunciation can. This module turns an ARPAbet pronunciation
// (the CMU Pronouncing Dictionary's) into plain Latin spellings whose
// skeletons (latinSkeleton) are those of the Devanagari letters a Hindi or
// Marathi writer uses for each sound: ER → र (ar), AE → ै or ॅ (ai, e),
// AH → अ (the inherent a), Z → ज़/झ (z), TH → थ (th), DH → द (d), a final
// plural Z → स. scripts/make-pronunciations.ts applies it to the whole
// dictionary once; the search reads the result (english-pronunciation.ts).

/** Consonant phonemes as the Latin letters of the Devanagari consonant written for them. */
const CONSONANTS: Record<string, string> = {
  B: "b",
  CH: "ch",
  D: "d",
  DH: "d",
  F: "f",
  G: "g",
  HH: "h",
  JH: "j",
  K: "k",
  L: "l",
  M: "m",
  N: "n",
  NG: "ng",
  P: "p",
  R: "r",
  S: "s",
  SH: "sh",
  T: "t",
  TH: "th",
  V: "v",
  W: "v",
  Y: "y",
  Z: "z",
  ZH: "j",
};

/**
 * Vowel phonemes as the letters of the vowel sign written for them, a
 * capital where Devanagari has a sign of its own that plain Latin spells
 * otherwise: AA ा (A; ॉ, O, when spelled o), AE ै (E) or ॅ (e), AH the
 * inherent a, AO ॉ (O), AW ाउ (Au), AY ाइ (Ai), EH and EY े, ER र with the
 * inherent a, IH ि, IY ी, OW ो, OY ॉय (Oy), UH ु, UW ू. A final AH is ा (A):
 * camera, idea (कैमरा, आइडिया). pronunciationSpellings writes the capitals as
 * plain letters (E as ai); the loanword table (app/content/english-loanwords.ts)
 * keeps them apart.
 */
const VOWELS: Record<string, string> = {
  AA: "A",
  AE: "E",
  AH: "a",
  AO: "O",
  AW: "Au",
  AY: "Ai",
  EH: "e",
  ER: "ar",
  EY: "e",
  IH: "i",
  IY: "i",
  OW: "o",
  OY: "Oy",
  UH: "u",
  UW: "u",
};

/** An unstressed vowel written as the word spells it (development: डेवलपमेंट, position: पोजीशन). */
const SPELLED: Record<string, string> = { a: "a", e: "e", i: "i", o: "o", u: "u", y: "i" };

/** Spellings per pronunciation at most, before skeletons merge them. */
const MAX_SPELLINGS = 6;

const isVowel = (phoneme: string | undefined) => phoneme !== undefined && /\d$/.test(phoneme);

/**
 * The spelling's vowel groups (a, ou, y between consonants…) in order, one
 * for each vowel phoneme; undefined when they do not pair up (a silent final
 * e or -es aside).
 */
function spelledVowels(word: string, vowels: number): string[] | undefined {
  const groups = [...word.matchAll(/[aeiou]+|(?<=[^aeiou])y(?![aeiou])/g)].map((match) => match[0]);
  if (groups.length === vowels) return groups;
  if (groups.length === vowels + 1 && /[^aeiou]es?$/.test(word)) return groups.slice(0, -1);
  return undefined;
}

/**
 * The letters of the Devanagari spellings a Hindi or Marathi writer would
 * give an English word (VOWELS' capitals for ा ै ॉ), from its ARPAbet
 * phonemes (stress digits included). Three readings of the unstressed
 * vowels: as said (schwa = the inherent a), as spelled, and as spelled only
 * where the spelling has e or i; AE read both ै and ॅ; with schwaAsE, an
 * unstressed schwa read both अ and े.
 */
export function pronunciationLetters(
  word: string,
  phonemes: readonly string[],
  options: { schwaAsE?: boolean } = {},
): string[] {
  const spelled = spelledVowels(word, phonemes.filter((phoneme) => isVowel(phoneme)).length);
  const readings = spelled ? (["sound", "spelling", "e or i"] as const) : (["sound"] as const);
  const result = new Set<string>();
  for (const reading of readings) {
    let spellings = [""];
    let vowel = 0;
    for (const [i, phoneme] of phonemes.entries()) {
      const sound = phoneme.replace(/\d$/, "");
      // "" before the first phoneme: no vowel, no N, as undefined would be.
      const previous = phonemes[i - 1] ?? "";
      const next = phonemes[i + 1];
      let choices: string[];
      const vowelLetters = VOWELS[sound];
      if (vowelLetters !== undefined) {
        const group = spelled?.[vowel];
        vowel++;
        const stressed = !phoneme.endsWith("0");
        let letters = vowelLetters;
        // AA spelled o is ॉ (doctor, college: डॉक्टर कॉलेज); AY before a vowel is ाय (science: सायंस).
        if (sound === "AA" && group?.startsWith("o")) letters = "O";
        if (sound === "AY" && isVowel(next)) letters = "Ay";
        // ि/ी before a final r is ियर: engineer, career (इंजीनियर करियर).
        if ((sound === "IY" || sound === "IH") && next === "R" && !isVowel(phonemes[i + 2])) letters += "ya";
        // A u after n is यू: new, nuclear, neuro (न्यू न्यूक्लियर न्यूरो).
        if ((sound === "UW" || sound === "UH") && previous === "N" && /n(?:u|eu|ew)/.test(word))
          letters = "yu";
        // A final schwa is ा: camera, idea (कैमरा, आइडिया).
        if (sound === "AH" && i === phonemes.length - 1) letters = "A";
        const bySpelling =
          reading === "spelling" || (reading === "e or i" && (group === "e" || group === "i"));
        const spelledLetters = group === undefined ? undefined : SPELLED[group];
        if (bySpelling && !stressed && sound !== "ER" && spelledLetters !== undefined)
          letters = spelledLetters;
        // A y glide between ि/ी and a schwa: medium, olympia (मीडियम ओलंपिया).
        if ((sound === "IY" || sound === "IH") && /^(?:AH|IH|ER)/.test(next ?? "")) letters += "y";
        choices = [letters];
        // An unstressed schwa written े as well, for the loanword table: management, accountant (मैनेजमेंट अकाउंटेंट).
        if (options.schwaAsE && sound === "AH" && !stressed && letters === "a") choices = ["a", "e"];
        if (sound === "AE" && letters === "E") {
          // Before f, th, s and nt, ns, nch, said as ा (class, plant, laughter: क्लास प्लांट लाफ्टर).
          const broad =
            /^(?:F|TH|S)$/.test(next ?? "") || (next === "N" && /^(?:T|S|CH)$/.test(phonemes[i + 2] ?? ""));
          choices = broad ? ["E", "e", "A"] : ["E", "e"];
        }
        if (sound === "AY" && letters === "Ay") choices = ["Ay", "Ai"];
      } else if (sound === "Z" && i === phonemes.length - 1 && word.endsWith("s")) {
        // A final -s said z is written स (governors: गवर्नर्स); after a vowel ज़ too (shoes: शूज़).
        choices = isVowel(previous) && !previous.startsWith("ER") ? ["z", "s"] : ["s"];
      } else if (sound === "NG" && (next === "K" || next === "G")) {
        // ङ before k and g is an anusvara: bank, english (बैंक इंग्लिश).
        choices = ["n"];
      } else {
        choices = [CONSONANTS[sound] ?? ""];
      }
      spellings = spellings.flatMap((s) => choices.map((c) => s + c)).slice(0, MAX_SPELLINGS);
    }
    for (const spelling of spellings) if (spelling !== "") result.add(spelling);
  }
  return [...result];
}

/**
 * Latin spellings of an English word as a Hindi or Marathi writer would put
 * it in Devanagari (pronunciationLetters in plain letters: ै as ai, ा as a),
 * what romanised search compares through latinSkeleton.
 */
export function pronunciationSpellings(word: string, phonemes: readonly string[]): string[] {
  const plain = pronunciationLetters(word, phonemes).map((letters) =>
    letters.replaceAll("E", "ai").toLowerCase(),
  );
  return [...new Set(plain)];
}

/**
 * Consonant phonemes as the consonant letters of english-loanwords.ts's
 * skeletons: T and D as the retroflex ट ड (capitals), TH and DH as the dental
 * थ द, Y left out (Hindi writes a य between vowels English has not: इंजीनियर).
 */
const SKELETON_CONSONANTS: Record<string, string> = {
  ...CONSONANTS,
  // One letter each for ch and sh (as the Devanagari side writes च and श/ष).
  CH: "c",
  SH: "S",
  D: "D",
  T: "T",
  TH: "t",
  Y: "",
  Z: "j",
};

/**
 * A pronunciation's consonant skeleton (english-loanwords.ts, decision 077)
 * and, for each place between its consonants (before the first, after each),
 * the vowel phonemes said there with their stress (`EH0`, `IH1`): ER is an
 * unstressed vowel then r; a final Z is s (a plural); a consonant said twice
 * with no vowel between is one; m before p or b is n. Undefined for a
 * pronunciation with a phoneme outside the tables.
 */
export function pronunciationSkeleton(
  phonemes: readonly string[],
): { skeleton: string; slots: string[] } | undefined {
  let skeleton = "";
  const slots: string[] = [""];
  const consonant = (letters: string) => {
    for (const letter of letters) {
      if (skeleton.endsWith(letter) && slots.at(-1) === "") continue;
      skeleton += letter;
      slots.push("");
    }
  };
  for (const [i, phoneme] of phonemes.entries()) {
    const sound = phoneme.replace(/\d$/, "");
    if (isVowel(phoneme)) {
      if (sound === "ER") {
        slots[slots.length - 1] += "AH0";
        consonant("r");
      } else if (VOWELS[sound] !== undefined) slots[slots.length - 1] += phoneme;
      else return undefined;
      continue;
    }
    if (sound === "Z" && i === phonemes.length - 1) {
      consonant("s");
      continue;
    }
    const letters = SKELETON_CONSONANTS[sound];
    if (letters === undefined) return undefined;
    consonant(letters);
  }
  return { skeleton: skeleton.replace(/m(?=[pb])/g, "n"), slots };
}
