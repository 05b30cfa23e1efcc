import type { Language } from "#app/content/languages.ts";

/** Interface words in each page language. */
export const LABELS = {
  english: {
    home: "Home",
    latest: "Latest",
    posts: "Quotes",
    readMore: "Read more",
    previous: "Previous",
    next: "Next",
    newer: "Newer",
    older: "Older",
    page: "Page",
    tags: "Tags",
    categories: "Categories",
    postedOn: "Posted on",
    noPosts: "No quotes yet.",
    languageHome: "English quotes",
  },
  hindi: {
    home: "मुखपृष्ठ",
    latest: "नवीनतम",
    posts: "सूक्तियाँ",
    readMore: "और पढ़ें",
    previous: "पिछला",
    next: "अगला",
    newer: "नए",
    older: "पुराने",
    page: "पृष्ठ",
    tags: "टैग",
    categories: "श्रेणियाँ",
    postedOn: "प्रकाशित",
    noPosts: "अभी कोई सूक्ति नहीं।",
    languageHome: "हिंदी सूक्तियाँ",
  },
  marathi: {
    home: "मुखपृष्ठ",
    latest: "नवीनतम",
    posts: "सुविचार",
    readMore: "अधिक वाचा",
    previous: "मागील",
    next: "पुढील",
    newer: "नवे",
    older: "जुने",
    page: "पान",
    tags: "टॅग",
    categories: "वर्ग",
    postedOn: "प्रकाशित",
    noPosts: "अजून एकही सुविचार नाही.",
    languageHome: "मराठी सुविचार",
  },
} satisfies Record<Language, Record<string, string>>;

export type Labels = (typeof LABELS)["english"];

export function labelsFor(language: Language): Labels {
  return LABELS[language];
}
