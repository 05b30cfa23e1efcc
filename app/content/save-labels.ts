// The Save button's words (issue 27 §2, decision 050): on post pages, cards
// and /saved. Apart from labels.ts, which every page loads (decision 033),
// and from saved-labels.ts, which only /saved and /c/… need.
import type { Language } from "#app/content/languages.ts";

export const SAVE_LABELS = {
  english: {
    save: "Save",
    saved: "Saved",
    savedQuotes: "Saved quotes",
  },
  hindi: {
    save: "सहेजें",
    saved: "सहेजा गया",
    savedQuotes: "सहेजी गई सूक्तियाँ",
  },
  marathi: {
    save: "जतन करा",
    saved: "जतन केले",
    savedQuotes: "जतन केलेले सुविचार",
  },
} satisfies Record<Language, Record<string, string>>;

export type SaveLabels = (typeof SAVE_LABELS)["english"];
