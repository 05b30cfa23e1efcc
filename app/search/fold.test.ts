import { expect, test } from "vitest";
import { codePoints, distinctWords, foldText, foldWords, hasDevanagari } from "#app/search/fold.ts";

test("English folds case and accents: cafe finds café", () => {
  expect(foldText("Café CRÈME naïve Ångström")).toBe("cafe creme naive angstrom");
  expect(foldText("Straße Æsop Œuvre")).toBe("strasse aesop oeuvre");
  expect(foldText("ＦＵＬＬ width ﬁne")).toBe("full width fine");
});

test("apostrophes inside words go; other punctuation separates words", () => {
  expect(foldText("Don't — one’s self-effort, (truly)!")).toBe("dont ones self effort truly");
  expect(foldWords("a/b\\c:d")).toEqual(["a", "b", "c", "d"]);
});

test("Devanagari is NFC-normalised: composed and decomposed nukta forms fold alike", () => {
  const decomposed = "\u091C\u093C\u0930\u0942\u0930\u0940"; // ज + nukta + रूरी
  const composed = "\u095B\u0930\u0942\u0930\u0940"; // precomposed ज़
  expect(foldText(decomposed)).toBe("जरूरी");
  expect(foldText(composed)).toBe("जरूरी");
});

test("nukta forms fold to their base", () => {
  expect(foldText("ज़िंदगी")).toBe(foldText("जिंदगी"));
  expect(foldText("बाज़ार")).toBe("बाजार");
  expect(foldText("क़ ख़ ग़ फ़ ड़ ढ़ य़")).toBe("क ख ग फ ड ढ य");
  expect(foldText("ऩ ऱ ऴ")).toBe("न र ळ");
});

test("chandrabindu and anusvara match each other", () => {
  expect(foldText("आँख")).toBe(foldText("आंख"));
  expect(foldText("माँ")).toBe("मां");
  expect(foldText("आँगन")).toBe("आंगन");
});

test("a half-न before a consonant matches anusvara", () => {
  expect(foldText("शान्ति")).toBe(foldText("शांति"));
  expect(foldText("हिन्दी")).toBe("हिंदी");
  expect(foldText("सन्त")).toBe("संत");
});

test("other half nasals before a consonant of their class match anusvara", () => {
  expect(foldText("सम्बन्ध")).toBe("संबंध");
  expect(foldText("पण्डित")).toBe("पंडित");
  expect(foldText("अङ्ग")).toBe("अंग");
  expect(foldText("चञ्चल")).toBe("चंचल");
  // Not before another class: तुम्हारा keeps its म्.
  expect(foldText("तुम्हारा")).toBe("तुम्हारा");
});

test("a word-initial half-न stays: न्याय is not ंयाय", () => {
  expect(foldText("न्याय")).toBe("न्याय");
});

test("दुःख matches दुख, and a final virama is optional", () => {
  expect(foldText("दुःख")).toBe(foldText("दुख"));
  expect(foldText("भगवान्")).toBe("भगवान");
  expect(foldText("अतः")).toBe("अतः");
});

test("vowel signs, virama and conjuncts stay inside their word", () => {
  expect(foldWords("प्रेम का धागा")).toEqual(["प्रेम", "का", "धागा"]);
  expect(foldWords("ज्ञानेश्वर")).toEqual(["ज्ञानेश्वर"]);
  expect(foldWords("स्वतःशी")).toEqual(["स्वतशी"]);
});

test("danda and double danda separate words; Devanagari digits become 0–9", () => {
  expect(foldText("राम।सीता॥ १०८")).toBe("राम सीता 108");
});

test("invisible characters go: ZWJ, ZWNJ, bidi marks, soft hyphen, BOM", () => {
  expect(foldText("क्\u200Dष")).toBe("क्ष");
  expect(foldText("\u202Elove\u202C \u200Fप्रेम\u200E")).toBe("love प्रेम");
  expect(foldText("\uFEFFself\u00ADless")).toBe("selfless");
});

test("query syntax, control characters and emoji fold to plain words or nothing", () => {
  expect(foldText('"love" AND (peace OR NOT*) NEAR/2 -x title:y')).toBe(
    "love and peace or not near 2 x title y",
  );
  expect(foldText("'; DROP TABLE posts; --")).toBe("drop table posts");
  expect(foldText("\u0000\u0007\u001b[31m🙏🔥")).toBe("31m");
  expect(foldText("🙏 ❤️")).toBe("");
  expect(foldText("")).toBe("");
});

test("folding is idempotent", () => {
  for (const text of ["Café d'Or", "ज़िन्दगी की शान्ति", "आँखें दुःख सम्बन्ध", "Ａ１ ＡＮＤ"]) {
    expect(foldText(foldText(text))).toBe(foldText(text));
  }
});

test("helpers: distinct words, Devanagari detection, code points", () => {
  expect(distinctWords("a b a c")).toEqual(["a", "b", "c"]);
  expect(distinctWords("")).toEqual([]);
  expect(hasDevanagari("abc मन")).toBe(true);
  expect(hasDevanagari("abc")).toBe(false);
  expect(codePoints("मन")).toBe(2);
  expect(codePoints("🙏")).toBe(1);
});
