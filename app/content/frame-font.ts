// The frame's Devanagari words (the menu's हिंदी and मराठी, the language
// switch, the search box's placeholder) are shown on every page, English
// ones too: a font of just their letters (app/styles/fonts/, made by
// scripts/make-frame-font.ts) draws them there, so a page with no Devanagari
// text of its own never downloads the whole Devanagari font (decision 067).
import { LANGUAGE_LABEL } from "#app/content/languages.ts";

/** The search box's placeholder: "search" in the three languages. */
export const SEARCH_PLACEHOLDER = "Search · खोजें · शोधा";

/** The frame font's family name (app/styles/fonts.css). */
export const FRAME_FONT_FAMILY = "Noto Sans Devanagari Frame";

/** Every Devanagari character of the frame's words, once each, in code point order. */
export function frameDevanagari(): string[] {
  const text = [...Object.values(LANGUAGE_LABEL), SEARCH_PLACEHOLDER].join("");
  return [...new Set([...text].filter((char) => /[\u0900-\u097F]/.test(char)))].sort(
    (a, b) => (a.codePointAt(0) ?? 0) - (b.codePointAt(0) ?? 0),
  );
}

/** The CSS unicode-range of those characters: U+902, U+915, … */
export function frameUnicodeRange(): string {
  return frameDevanagari()
    .map((char) => `U+${(char.codePointAt(0) ?? 0).toString(16).toUpperCase()}`)
    .join(", ");
}
