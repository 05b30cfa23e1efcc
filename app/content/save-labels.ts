// The Save button's words (decision 050): on post pages, cards
// and /saved. Apart from labels.ts, which every page loads (decision 033;
// it holds only "Saved quotes", the footer's link), and from
// saved-labels.ts, which only /saved and /c/… need.
import type { Language } from "#app/content/languages.ts";

export const SAVE_LABELS = {
  english: {
    save: "Save",
    saved: "Saved",
  },
  hindi: {
    save: "सहेजें",
    saved: "सहेजा गया",
  },
  marathi: {
    save: "जतन करा",
    saved: "जतन केले",
  },
} satisfies Record<Language, Record<string, string>>;

export type SaveLabels = (typeof SAVE_LABELS)["english"];
