import { describe, expect, test } from "vitest";
import { base64UrlToBytes, hourLabel, noticeOf, readChoice, sameOriginUrl } from "./daily-push.ts";

const SITE = "https://sukti.example";

describe("a push's notification", () => {
  test("shows the payload's title, body, language and tag, and opens its page on this site", () => {
    expect(
      noticeOf(
        {
          title: "प्रेम",
          body: "प्रेम गली अति साँकरी — कबीर",
          url: `${SITE}/hindi/prem`,
          lang: "hi",
          tag: "daily-hindi",
        },
        SITE,
      ),
    ).toEqual({
      title: "प्रेम",
      body: "प्रेम गली अति साँकरी — कबीर",
      url: `${SITE}/hindi/prem`,
      lang: "hi",
      tag: "daily-hindi",
    });
    // A language name is made a tag; a path is made an address on the site.
    expect(noticeOf({ title: "T", url: "/marathi/x", language: "marathi" }, SITE)).toMatchObject({
      url: `${SITE}/marathi/x`,
      lang: "mr",
      tag: "daily-quote",
    });
  });

  test("never opens another origin: another host, scheme or a script goes to the site's home", () => {
    for (const url of [
      "https://evil.example/hindi/prem",
      "http://sukti.example/hindi/prem",
      "//evil.example/x",
      "javascript:alert(1)",
      "data:text/html,hi",
      42,
      null,
    ]) {
      expect(sameOriginUrl(url, SITE), String(url)).toBe(`${SITE}/`);
      expect(noticeOf({ title: "T", url }, SITE).url).toBe(`${SITE}/`);
    }
    expect(sameOriginUrl(`${SITE}/english/a?b=1`, SITE)).toBe(`${SITE}/english/a?b=1`);
  });

  test("a payload that cannot be read still shows the quote of the day (every push must show one)", () => {
    expect(noticeOf(null, SITE)).toEqual({
      title: "Quote of the day",
      body: "",
      url: `${SITE}/`,
      lang: "",
      tag: "daily-quote",
    });
    expect(noticeOf({ lang: "hindi" }, SITE).title).toBe("आज की सूक्ति");
    expect(noticeOf({ title: "T", lang: "<script>" }, SITE).lang).toBe("");
    expect(noticeOf({ title: "x".repeat(1000) }, SITE).title).toHaveLength(200);
  });
});

describe("the reader's choice", () => {
  test("is read back only when whole and in range", () => {
    expect(readChoice({ language: "hindi", hour: 7, timeZone: "Asia/Kolkata" })).toEqual({
      language: "hindi",
      hour: 7,
      timeZone: "Asia/Kolkata",
    });
    expect(readChoice({ language: "hindi", hour: 24, timeZone: "Asia/Kolkata" })).toBeNull();
    expect(readChoice({ language: "hindi", hour: 6.5, timeZone: "Asia/Kolkata" })).toBeNull();
    expect(readChoice({ language: "german", hour: 7, timeZone: "UTC" })).toBeNull();
    expect(readChoice({ language: "english", hour: 7, timeZone: "" })).toBeNull();
    expect(readChoice("x")).toBeNull();
    expect(hourLabel(7)).toBe("07:00");
    expect(hourLabel(23)).toBe("23:00");
  });

  test("base64url keys decode to bytes", () => {
    expect([...base64UrlToBytes("BP8_-w")]).toEqual([4, 255, 63, 251]);
  });
});
