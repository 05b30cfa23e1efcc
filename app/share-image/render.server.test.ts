import { expect, test } from "vitest";
import { SHARE_IMAGE_MAX_BYTES } from "#app/share-image/content.ts";
import { renderShareImage } from "#app/share-image/render.server.ts";

const base = {
  language: "marathi" as const,
  slug: "s",
  image: "/images/default-clipart.svg",
  hasOwnImage: false,
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
