import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  devanagariLetters,
  devanagariSkeleton,
  ENGLISH_WORD_MARK,
  englishWordByConsonants,
  englishWordFor,
  initialismFor,
  isCommonEnglishWord,
  LOANWORDS_FILE,
  loanwordKey,
  SKELETON_MARK,
  saidAsWritten,
  vowelsAgree,
} from "#app/content/english-loanwords.ts";
import { romanise, romaniseWord } from "#app/content/roman-letters.ts";
import { sortedLinesFile } from "#app/content/sorted-lines-file.ts";

// Our own words, not the evaluation lexicon's (decision 075).
describe("English words in Devanagari", () => {
  const loanwords: [devanagari: string, english: string][] = [
    ["कंप्यूटर", "computer"],
    ["इंटरनेशनल", "international"], // a written inherent a not said (र न)
    ["अकैडमी", "academy"],
    ["इंटरव्यू", "interview"],
    ["यूनिवर्सिटी", "university"],
    ["हॉस्पिटल", "hospital"],
    ["स्टेशन", "station"],
    ["डॉक्टर", "doctor"],
    ["प्रोफेसर", "professor"],
    ["मैनेजमेंट", "management"], // an unstressed schwa written े
    ["टेक्नोलॉजी", "technology"], // ो and ॉ both for o
    ["कैमरा", "camera"], // a final schwa written ा
    ["मीटिंग", "meeting"],
    ["ट्रेनिंग", "training"],
  ];
  it.each(loanwords)("%s is said as %s", (devanagari, english) => {
    expect(englishWordFor(devanagari)).toBe(english);
    expect(romaniseWord(devanagari, "hindi")).toBe(english);
  });

  it("leaves Hindi words that sound like a short or rare English word to the rules", () => {
    // पति putty, एक ache, हरि hurry: English words under six letters are not in the table.
    for (const [word, romanised] of [
      ["पति", "pati"],
      ["एक", "ek"],
      ["हरि", "hari"],
      ["चोट", "chot"], // choate: six letters, not among the most frequent
      ["प्रेम", "prem"],
      ["परमात्मा", "parmatma"],
    ] as const) {
      expect(romaniseWord(word, "hindi")).toBe(romanised);
    }
  });

  it("needs an English vowel where Devanagari writes one: तर्क is not truck", () => {
    // truck: t, r, a said, k; तर्क: a after t, none after र.
    expect(saidAsWritten("trak", "tarka")).toBe(false);
    expect(saidAsWritten("trak", "traka")).toBe(true); // ट्रक
    expect(devanagariLetters("इंटरनेशनल")).toBe("intaraneshanala");
    expect(saidAsWritten("intarneshanal", "intaraneshanala")).toBe(true); // र's a not said
    expect(saidAsWritten("kat", "kata")).toBe(true);
    expect(saidAsWritten("kata", "kat")).toBe(false);
  });

  it("keeps a word the rules already write as a common English word", () => {
    expect(isCommonEnglishWord("grid")).toBe(true);
    expect(isCommonEnglishWord("kabir")).toBe(false);
    expect(romaniseWord("ग्रिड", "hindi")).toBe("grid"); // not greed, which sounds the same
  });

  it("looks up a short English word where the Devanagari has ॉ or ॅ", () => {
    expect(romaniseWord("हॉल", "hindi")).toBe("hall"); // ॉ as written: not whole
    expect(romaniseWord("कॉपी", "hindi")).toBe("copy");
    expect(romaniseWord("बस", "hindi")).toBe("bas"); // bus: nothing English-looking, left to the rules
  });

  it("takes a short English word for a Devanagari word that looks English and is said exactly so (decision 086)", () => {
    for (const [word, english] of [
      ["टाइम", "time"], // ट, ाइ
      ["ग्रुप", "group"], // a start of two consonants
      ["जस्ट", "just"], // a final cluster
      ["जैम", "jam"], // ै
      ["फीवर", "fever"], // a long vowel, then -र
      ["लोकल", "local"], // a long vowel, then -ल
      ["यूजर", "user"], // यू
      ["एप्पल", "apple"], // ए and two more letters
    ] as const) {
      expect(romaniseWord(word, "hindi"), word).toBe(english);
    }
    for (const [word, romanised] of [
      ["एक", "ek"], // ache: ए and one letter only
      ["मस्त", "mast"], // must: a dental त is not English t
      ["वित्त", "vitt"], // wit
      ["कोण", "kon"], // cone: ण is not English
      ["सहित", "sahit"], // an a not said, and a त
      ["करो", "karo"], // crow: nothing English-looking (and an a not said)
      ["पैसों", "paison"], // passon: the oblique plural's stem takes long English words only
      ["प्रीति", "priti"], // pretty: two vowels, nothing English-looking, however long the English word
      ["चिता", "chita"], // cheetah
      ["होली", "holi"], // wholly
      ["कृष्ण", "krishna"], // as its writers spell it (an exception), not krishn
      ["पोषण", "poshan"], // potion: ण is not an English n
      ["वर्णन", "varnan"], // vernon
    ] as const) {
      expect(romaniseWord(word, "hindi"), word).toBe(romanised);
    }
  });

  it("reads ण as an English n only before ट or ड, and त as English only after स", () => {
    expect(englishWordFor("एण्टरटेनमेंट")).toBe("entertainment");
    expect(englishWordFor("हॅण्ड")).toBe("hand");
    expect(englishWordFor("पोषण")).toBeUndefined();
    expect(englishWordFor("पिस्तौल")).toBe("pistol");
    expect(englishWordFor("तरक्की")).toBeUndefined(); // turkey
    expect(englishWordFor("सपत्नीक")).toBeUndefined(); // sputnik
  });

  it("gives way to the English word said so where the rules spell another (decision 086)", () => {
    expect(romaniseWord("फाइल", "hindi")).toBe("file"); // the rules: fail
    expect(romaniseWord("लाइट", "hindi")).toBe("light"); // lait
    expect(romaniseWord("साइड", "hindi")).toBe("side"); // said
    expect(romaniseWord("टच", "hindi")).toBe("tach"); // two letters: too short to look English (touch)
    expect(romaniseWord("ग्रिड", "hindi")).toBe("grid"); // said so too: not greed
    expect(romaniseWord("मैं", "hindi")).toBe("main"); // a nasal end: not man
    expect(romaniseWord("पैल", "marathi")).toBe("pail"); // ै: the rules' ai, not pal
  });

  it("never writes profanity or a slur for a Devanagari word", () => {
    expect(englishWordFor("निगर")).toBeUndefined(); // the table's first candidate is a slur
    expect(romaniseWord("निगर", "hindi")).toBe("nigar");
    expect(englishWordFor("डिक")).toBeUndefined();
    expect(englishWordFor("ऐस")).toBeUndefined();
  });

  it("reads initialisms from the letters' names, two letters or more, but for words of that shape", () => {
    expect(initialismFor("आईबीएम")).toBe("ibm");
    expect(initialismFor("एमएचआरडी")).toBe("mhrd");
    expect(initialismFor("डब्ल्यूएचओ")).toBe("who");
    expect(initialismFor("टीवी")).toBe("tv");
    expect(initialismFor("आईडी")).toBe("id");
    expect(initialismFor("बीवी")).toBeUndefined(); // a Hindi word (wife)
    expect(initialismFor("एके")).toBeUndefined(); // Marathi एके दिवशी, one day
    expect(initialismFor("बी")).toBeUndefined(); // one letter
    expect(initialismFor("जीवन")).toBeUndefined();
    expect(romaniseWord("आईबीएम", "hindi")).toBe("ibm");
    expect(romaniseWord("टीवी", "hindi")).toBe("tv");
    expect(romaniseWord("बीवी", "hindi")).toBe("bivi");
    expect(romaniseWord("ओवी", "marathi")).toBe("ovi");
  });

  it("looks a word up without the y Hindi writes between i and a vowel when it has none with it (decision 088)", () => {
    expect(romaniseWord("स्टूडियो", "hindi")).toBe("studio"); // not study
    expect(romaniseWord("स्टुडियो", "hindi")).toBe("studio");
    expect(romaniseWord("रेडियो", "hindi")).toBe("radio");
    // Hindi words with the y keep it.
    expect(romaniseWord("कहानियों", "hindi")).toBe("kahaniyon");
  });

  it("writes an English word with the Hindi oblique plural", () => {
    expect(romaniseWord("कंप्यूटरों", "hindi")).toBe("computeron");
  });

  it("writes an English stem with Marathi endings", () => {
    expect(romaniseWord("कंप्यूटरचा", "marathi")).toBe("computercha");
    expect(romaniseWord("हॉस्पिटलमध्ये", "marathi")).toBe("hospitalmadhye");
  });

  it("writes the letters of a Devanagari spelling with each inherent a", () => {
    expect(devanagariLetters("कमल")).toBe("kamala");
    expect(devanagariLetters("प्रेम")).toBe("prema");
    expect(devanagariLetters("कैमरा")).toBe("kEmarA");
    expect(devanagariLetters("hello")).toBeUndefined();
    expect(loanwordKey("kamala")).toBe("kml");
    expect(loanwordKey("aphasa")).toBe("afs"); // a first a stays
  });

  it("goes through a text word by word", () => {
    expect(romanise("मेरा कंप्यूटर और मोबाइल", "hindi")).toBe("mera computer aur mobail");
  });
});

// Decision 077: words spelled with other vowels than the dictionary says (our own words).
describe("English words by their consonants", () => {
  it("writes words whose vowels follow the English spelling", () => {
    expect(englishWordByConsonants("अप्लीकेशन")).toBe("application"); // अ for æ (secondary stress)
    expect(englishWordByConsonants("आर्टिकल")).toBe("article");
    expect(englishWordByConsonants("अपॉइंटमेंट")).toBe("appointment");
    expect(englishWordByConsonants("इंस्टालेशन")).toBe("installation");
    expect(romaniseWord("इंस्टालेशन", "hindi")).toBe("installation");
  });

  it("reads ाय as the diphthong ai, its y the second letter (decision 088)", () => {
    expect(devanagariSkeleton("डायमंड")).toEqual({ skeleton: "DmnD", slots: ["", "Ai", "a", "", "a"] });
    expect(romaniseWord("डायमंड", "hindi")).toBe("diamond");
    expect(romaniseWord("लायब्रेरी", "hindi")).toBe("library");
    expect(romaniseWord("फायरिंग", "hindi")).toBe("firing");
    // Hindi words with ाय stay Hindi (no English word of their consonants and vowels).
    for (const [word, written] of [
      ["गायक", "gayak"],
      ["सहायता", "sahayta"],
      ["कायर", "kayar"],
    ])
      expect(romaniseWord(word as string, "hindi"), word).toBe(written);
  });

  it("takes ो or ॉ for an unstressed schwa: the English letter o (decision 088)", () => {
    expect(romaniseWord("इकोनॉमिक्स", "hindi")).toBe("economics");
    expect(romaniseWord("नाइट्रोजन", "hindi")).toBe("nitrogen");
    expect(romaniseWord("कोलंबस", "hindi")).toBe("columbus");
    // A stressed vowel still needs its own letters: अ under stress is not o.
    expect(vowelsAgree(["o"], ["AH1"])).toBe(false);
    expect(vowelsAgree(["o"], ["AH0"])).toBe(true);
  });

  it("leaves Hindi words of English consonants alone: their vowels differ, or they have an aspirate or a dental t", () => {
    for (const word of [
      "प्रकाशन",
      "परीक्षण",
      "करवाना",
      "सम्राट",
      "संस्कार",
      "प्रार्थना",
      "सिद्धांत",
      "स्वतंत्रता",
      "अंतर्मन",
    ])
      expect(englishWordByConsonants(word), word).toBeUndefined();
    // Fewer than four consonants are never matched so: अंदर is not under.
    expect(englishWordByConsonants("अंदर")).toBeUndefined();
  });

  it("never writes a word ending in a nasal vowel as a whole English word: ों ें ां are Hindi endings", () => {
    expect(romaniseWord("मतों", "hindi")).toBe("maton"); // votes, not mutton
    // An English stem before the oblique plural still is one.
    expect(romaniseWord("पैकेजों", "hindi")).toBe("packageon");
  });

  it("reads a Devanagari word's skeleton and the vowels between its consonants", () => {
    // य is left out, the final inherent a kept, a virama writes none, ट is T.
    expect(devanagariSkeleton("इंजीनियर")).toEqual({ skeleton: "njnr", slots: ["i", "", "i", "ia", "a"] });
    expect(devanagariSkeleton("कंट्रोल")).toEqual({ skeleton: "knTrl", slots: ["", "a", "", "", "o", "a"] });
    // A final nasal sign is a nasal vowel, not an n; ड़ and aspirates are not English.
    expect(devanagariSkeleton("पार्टियां")?.skeleton).toBe("prT");
    expect(devanagariSkeleton("लड़की")).toBeUndefined();
    expect(devanagariSkeleton("भारत")).toBeUndefined();
  });

  it("agrees vowels place by place: a stressed one must be written as Devanagari writes it", () => {
    // application: AE2 P L AH0 K EY1 SH AH0 N
    const application = ["AE2", "", "AH0", "EY1", "AH0", ""];
    expect(vowelsAgree(["a", "", "i", "e", "a", ""], application)).toBe(true);
    expect(vowelsAgree(["a", "", "i", "A", "a", ""], application)).toBe(false); // ा for EY1
    expect(vowelsAgree(["a", "", "i", "e", "a"], application)).toBe(false); // places differ
    // No vowel said: none, or an inherent a, but not a word's first vowel.
    expect(vowelsAgree(["a", ""], ["", ""])).toBe(false);
    expect(vowelsAgree(["", "a"], ["", ""])).toBe(true);
  });
});

describe("the loanword table", () => {
  const text = readFileSync(path.join(import.meta.dirname, "..", "..", LOANWORDS_FILE), "latin1");
  const lines = text.split("\n").filter((line) => line !== "" && !line.startsWith("#"));

  it("is sorted by key, as bisection needs", () => {
    const keys = lines.map((line) => line.split(" ")[0] as string);
    const unsorted = keys.findIndex((key, i) => i > 0 && (keys[i - 1] as string) >= key);
    expect(unsorted).toBe(-1);
    expect(keys.filter((key) => key.startsWith(ENGLISH_WORD_MARK)).length).toBeGreaterThan(30_000);
    expect(keys.filter((key) => key.startsWith(SKELETON_MARK)).length).toBeGreaterThan(5_000);
  });

  it("finds every line's key, including a run of lines with no space", () => {
    const file = sortedLinesFile(LOANWORDS_FILE);
    const sample = lines.filter((_, i) => i % 997 === 0);
    expect(sample.length).toBeGreaterThan(50);
    for (const line of sample) {
      const space = line.indexOf(" ");
      const key = space === -1 ? line : line.slice(0, space);
      expect(file.lookup(key)).toBe(space === -1 ? "" : line.slice(space + 1));
    }
    expect(file.lookup("=zzzzzz")).toBeUndefined();
    expect(file.lookup("")).toBeUndefined();
  });
});
