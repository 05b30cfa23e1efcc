import { expect, test } from "vitest";
import { audioTypeOf } from "#app/content/audio.ts";
import { describeIssues, MAX_AUDIO_URL_LENGTH, PostRecordSchema } from "#app/content/schemas.ts";

const post = {
  idNum: 1,
  language: "hindi",
  status: "publish",
  postTime: 1_700_000_000,
  title: "प्रेम",
  slug: "prem",
  content: "<p>ढाई आखर प्रेम का</p>",
};

function audioOf(audio: unknown) {
  const result = PostRecordSchema.safeParse({ ...post, audio });
  return result.success ? { audio: result.data.audio } : { problems: describeIssues(result.error) };
}

test("audio: an http(s) address or a path under the site, trimmed; none when absent, empty or null", () => {
  expect(audioOf("https://example.org/kabir.mp3")).toEqual({ audio: "https://example.org/kabir.mp3" });
  expect(audioOf("  /audio/prem.mp3 ")).toEqual({ audio: "/audio/prem.mp3" });
  expect(audioOf("")).toEqual({ audio: "" });
  expect(audioOf(null)).toEqual({ audio: "" });
  expect(PostRecordSchema.parse(post).audio ?? "").toBe("");
  expect(audioOf(`/${"a".repeat(MAX_AUDIO_URL_LENGTH - 1)}`)).toEqual({
    audio: `/${"a".repeat(MAX_AUDIO_URL_LENGTH - 1)}`,
  });
});

test("audio: anything a browser could run, another host by //, spaces and quotes, a non-string, too long: one line each", () => {
  expect(audioOf("javascript:alert(1)")).toEqual({
    problems: ['audio: "javascript:alert(1)" is not an http(s) address or a path starting with /'],
  });
  expect(audioOf("//evil.example/x.mp3")).toEqual({
    problems: ['audio: "//evil.example/x.mp3" is not an http(s) address or a path starting with /'],
  });
  expect(audioOf("data:audio/wav;base64,AAAA")).toMatchObject({
    problems: [expect.stringMatching(/^audio: /)],
  });
  expect(audioOf('/audio/a".mp3')).toEqual({
    problems: ["audio: may not contain spaces, quotes or angle brackets"],
  });
  expect(audioOf(12)).toEqual({ problems: ["audio: must be an address, not 12"] });
  expect(audioOf(`/${"a".repeat(MAX_AUDIO_URL_LENGTH)}`)).toEqual({
    problems: ["audio: is longer than 2,048 characters"],
  });
});

test("the media type of a recording by its extension", () => {
  expect(audioTypeOf("/audio/a.MP3")).toBe("audio/mpeg");
  expect(audioTypeOf("https://x.example/a.m4a?v=2#t=3")).toBe("audio/mp4");
  expect(audioTypeOf("/audio/a.wav")).toBe("audio/wav");
  expect(audioTypeOf("/audio/a.ogg")).toBe("audio/ogg");
  expect(audioTypeOf("/images/a.jpg")).toBeNull();
  expect(audioTypeOf("/audio/noextension")).toBeNull();
});
