import { expect, test } from "vitest";
import { SHARE_IMAGE_MAX_BYTES } from "#app/share-image/content.ts";
import { renderShareImage } from "#app/share-image/render.server.ts";

const base = {
  language: "marathi" as const,
  slug: "s",
  image: "/images/default-clipart.svg",
  hasOwnImage: false,
  brand: { name: "Sukti", logo: "/images/logo.svg" },
};

test("a quote too long for the card gives way to the post's title", async () => {
  const long = `<p>${"विठ्ठल विठ्ठल जय हरि विठ्ठल ".repeat(40)}</p>`;
  const { layout, jpeg } = await renderShareImage({ ...base, title: "विठ्ठल नामाचा गजर", content: long });
  expect(layout.source).toBe("title");
  expect(layout.items[0]!.text).toBe("विठ्ठल नामाचा गजर");
  expect(jpeg.length).toBeLessThan(SHARE_IMAGE_MAX_BYTES);
});

test("a short quote is set large, and every line stays inside the card", async () => {
  const { layout } = await renderShareImage({ ...base, title: "t", content: "<p>क्षमा</p><p>— संत</p>" });
  expect(layout.source).toBe("quote");
  const [quote, attribution] = layout.items;
  expect(quote!.size).toBe(72);
  expect(attribution!.text).toBe("— संत");
  for (const item of layout.items) {
    expect(item.x).toBeGreaterThanOrEqual(0);
    expect(item.y).toBeLessThan(630);
  }
});

test("a title too long even at the smallest size is cut at a word", async () => {
  const title = "धर्म ".repeat(200).trim();
  const { layout } = await renderShareImage({ ...base, title, content: "" });
  expect(layout.source).toBe("title");
  expect(layout.items[0]!.text.endsWith("…")).toBe(true);
});

test("a quote of many words wraps into balanced lines inside the card, every word kept in order", async () => {
  const quotes = {
    marathi: "जे का रंजले गांजले त्यासि म्हणे जो आपुले तोचि साधु ओळखावा देव तेथेचि जाणावा मृदु सबाह्य नवनीत तैसे सज्जनाचे चित्त",
    english:
      "Whoever holds the tired and the troubled as his own is the true saint, know him so; God dwells right there, soft within and without like butter",
  } as const;
  for (const [language, text] of Object.entries(quotes) as [keyof typeof quotes, string][]) {
    const { layout } = await renderShareImage({ ...base, language, title: "t", content: `<p>${text}</p>` });
    expect(layout.source, language).toBe("quote");
    const lines = layout.items.filter((item) => item.size === layout.items[0]!.size);
    expect(lines.length, language).toBeGreaterThan(1);
    expect(lines.map((line) => line.text).join(" "), language).toBe(text);
    // Centred: a line's width is 1200 − 2x; the quote's box leaves 96 px each side.
    for (const line of lines) expect(line.x, `${language}: ${line.text}`).toBeGreaterThanOrEqual(96);
    // Balanced: no lone last word, and no line much shorter than the longest.
    expect(lines.at(-1)!.text.split(" ").length, language).toBeGreaterThan(1);
    const widths = lines.map((line) => 1200 - 2 * line.x);
    expect(Math.min(...widths) / Math.max(...widths), language).toBeGreaterThan(0.6);
  }
});
