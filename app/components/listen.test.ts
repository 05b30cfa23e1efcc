import { expect, test } from "vitest";
import { speechChunks, voiceFor } from "#app/components/listen.tsx";

const voice = (lang: string) => ({ lang, name: lang }) as SpeechSynthesisVoice;

test("a voice of the post's language: its Indian one first, any of the language next, never another language", () => {
  const voices = [voice("en-US"), voice("hi_IN"), voice("en-IN"), voice("mr")];
  expect(voiceFor(voices, "hindi")?.name).toBe("hi_IN");
  expect(voiceFor(voices, "marathi")?.name).toBe("mr");
  expect(voiceFor(voices, "english")?.name).toBe("en-IN");
  expect(voiceFor([voice("en-GB")], "english")?.name).toBe("en-GB");
  expect(voiceFor([voice("en-US"), voice("en-IN")], "hindi")).toBeNull();
  // "hil" (Hiligaynon) is not Hindi.
  expect(voiceFor([voice("hil-PH")], "hindi")).toBeNull();
  expect(voiceFor([], "marathi")).toBeNull();
});

test("speech in pieces: each line alone, sentences joined up to the limit, long ones cut at a space", () => {
  expect(speechChunks("ढाई आखर\nपोथी पढ़ि पढ़ि जग मुआ। ढाई आखर प्रेम का॥")).toEqual([
    "ढाई आखर",
    "पोथी पढ़ि पढ़ि जग मुआ। ढाई आखर प्रेम का॥",
  ]);
  expect(speechChunks("One. Two. Three.", 9)).toEqual(["One. Two.", "Three."]);
  expect(speechChunks("aaaa bbbb cccc dddd", 10)).toEqual(["aaaa bbbb", "cccc dddd"]);
  expect(speechChunks("  \n\n  ")).toEqual([]);
  const long = "शब्द ".repeat(200);
  const chunks = speechChunks(long);
  expect(chunks.every((chunk) => chunk.length <= 200)).toBe(true);
  expect(chunks.join(" ")).toBe(long.trim());
});
