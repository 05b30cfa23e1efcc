import { loadImage } from "@napi-rs/canvas";
import { expect, test } from "vitest";
import { verseLines } from "#app/content/verse-lines.ts";
import { renderListCard } from "#app/share-image/list-card.server.ts";
import {
  LIST_CARD_WIDTHS,
  listCardPath,
  listCardSrcSet,
  listCardText,
  listCardVersion,
} from "#app/share-image/list-card.ts";

const doha = {
  language: "hindi" as const,
  slug: "साईं-इतना-दीजिए",
  title: "साईं इतना दीजिए",
  excerpt: "साईं इतना दीजिए, जा में कुटुम समाय। मैं भी भूखा न रहूँ, साधु न भूखा जाय॥",
};

test("a verse keeps its lines; prose and long pieces stay one line", () => {
  expect(verseLines("रघुकुल रीति सदा चलि आई। प्रान जाहुँ बरु बचनु न जाई॥")).toEqual([
    "रघुकुल रीति सदा चलि आई।",
    "प्रान जाहुँ बरु बचनु न जाई॥",
  ]);
  expect(verseLines("एक ॥१॥  दो ॥२॥")).toEqual(["एक ॥१॥", "दो ॥२॥"]);
  expect(verseLines("Hatred ceases by love. This is an old rule.")).toEqual([
    "Hatred ceases by love. This is an old rule.",
  ]);
  const prose = `${"यह एक लंबा वाक्य है जो कविता की पंक्ति से कहीं अधिक लंबा चलता है और चलता रहता है"}। दूसरा।`;
  expect(verseLines(prose)).toEqual([prose]);
  expect(verseLines("  ")).toEqual([]);
});

test("the card shows the excerpt, else the title; its address names what it shows", () => {
  expect(listCardText(doha)).toHaveLength(2);
  expect(listCardText({ ...doha, excerpt: "" })).toEqual(["साईं इतना दीजिए"]);
  const version = listCardVersion(doha);
  expect(version).toMatch(/^[0-9a-z]{11}$/);
  expect(listCardVersion({ ...doha, excerpt: `${doha.excerpt} ` })).not.toBe(version);
  expect(listCardVersion({ ...doha, title: "x" })).not.toBe(version);
  expect(listCardPath(doha, version, "dark", 320)).toBe(
    `/card/hindi/${version}/dark/320/${encodeURIComponent(doha.slug)}.webp`,
  );
  // No comma or space inside an address: srcset splits on them.
  expect(listCardSrcSet({ ...doha, slug: "a, b" }, version, "light").split(", ")).toHaveLength(
    LIST_CARD_WIDTHS.length,
  );
});

test("each width is a square WebP of that width, light and dark, small enough for a list", async () => {
  for (const width of LIST_CARD_WIDTHS) {
    const light = await renderListCard(doha, "light", width);
    const dark = await renderListCard(doha, "dark", width);
    const image = await loadImage(light.webp);
    expect([image.width, image.height]).toEqual([width, width]);
    expect(light.webp.equals(dark.webp)).toBe(false);
    // Measured 3.6 kB (160) to 14 kB (640) for the demo's median card.
    expect(light.webp.length).toBeLessThan(width * 60);
    expect(dark.webp.length).toBeLessThan(width * 60);
  }
});

test("a doha keeps its two lines, each balanced in halves; too long a quote gives way to the title", async () => {
  const { layout } = await renderListCard(doha, "light", 160);
  expect(layout.source).toBe("quote");
  expect(layout.lines.join(" ")).toBe(doha.excerpt);
  // Each line break falls after a comma or a danda, never inside a verse line's half.
  expect(layout.lines.every((line) => /[,।॥]$/.test(line))).toBe(true);
  const long = { ...doha, excerpt: "विठ्ठल विठ्ठल जय हरि विठ्ठल ".repeat(40) };
  const titled = await renderListCard(long, "dark", 160);
  expect(titled.layout.source).toBe("title");
  expect(titled.layout.lines).toEqual(["साईं इतना दीजिए"]);
});
