import { expect, test } from "vitest";
import { shareImagePath, shareImageVersion, shareText } from "#app/share-image/content.ts";

const post = {
  language: "hindi" as const,
  slug: "तरुवर-फल",
  title: "तरुवर फल नहिं खात है",
  content:
    "<p>तरुवर फल नहिं खात है, सरवर पियहिं न पान।<br>कहि रहीम पर काज हित, संपति सँचहिं सुजान॥</p><p><em>पेड़ अपने फल नहीं खाते।</em></p><p>— रहीम</p>",
  image: "/images/cards/hindi-2.jpg",
  brand: { name: "Sukti", logo: "/images/logo.svg" },
};

test("the quote is the first paragraph, line by line; a closing dash paragraph names who said it", () => {
  expect(shareText(post.content)).toEqual({
    quote: ["तरुवर फल नहिं खात है, सरवर पियहिं न पान।", "कहि रहीम पर काज हित, संपति सँचहिं सुजान॥"],
    attribution: "रहीम",
  });
  expect(shareText("<p>Be the change.</p>")).toEqual({ quote: ["Be the change."], attribution: null });
  expect(shareText("")).toEqual({ quote: [], attribution: null });
});

test("only the first paragraph with text is the quote and only the last with text may name who said it", () => {
  // Empty paragraphs around them, notes between them.
  expect(shareText("<p> </p><p>One.<br>Two.</p><p>A note.</p><p>— Kabir</p><p></p>")).toEqual({
    quote: ["One.", "Two."],
    attribution: "Kabir",
  });
  // A dash paragraph that is not the last names nobody.
  expect(shareText("<p>One.</p><p>— Kabir</p><p>A note.</p>")).toEqual({
    quote: ["One."],
    attribution: null,
  });
  // The only paragraph a dash line: a name, no quote; the source's line wins over it.
  expect(shareText("<p></p><p>— Kabir</p>")).toEqual({ quote: [], attribution: "Kabir" });
  expect(shareText("<p>— Kabir</p>", "Kabir, Bijak")).toEqual({ quote: [], attribution: "Kabir, Bijak" });
  expect(shareText("<p>One.</p><p>— Kabir</p>", "Kabir, Bijak")).toEqual({
    quote: ["One."],
    attribution: "Kabir, Bijak",
  });
  expect(shareText("<p> </p><p></p>", "Kabir")).toEqual({ quote: [], attribution: "Kabir" });
});

test("the version changes with the title, the text, the image or the site's name and logo, and only with them", () => {
  const version = shareImageVersion(post);
  expect(version).toMatch(/^[0-9a-z]{11}$/);
  expect(shareImageVersion({ ...post })).toBe(version);
  expect(shareImageVersion({ ...post, title: `${post.title}!` })).not.toBe(version);
  expect(shareImageVersion({ ...post, content: `${post.content} ` })).not.toBe(version);
  expect(shareImageVersion({ ...post, image: "" })).not.toBe(version);
  // What the image shows of the site (SITE_CONFIG's name and logo, decision 055).
  expect(shareImageVersion({ ...post, brand: { ...post.brand, name: "Vani" } })).not.toBe(version);
  expect(shareImageVersion({ ...post, brand: { ...post.brand, logo: "/images/vani.png" } })).not.toBe(
    version,
  );
});

test("the path carries language, version and the encoded slug", () => {
  expect(shareImagePath(post)).toBe(
    `/share/hindi/${shareImageVersion(post)}/${encodeURIComponent("तरुवर-फल")}.jpg`,
  );
});
