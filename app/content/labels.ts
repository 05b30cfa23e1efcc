import type { Language } from "#app/content/languages.ts";

/**
 * The frame's words in each page language (header, footer, search box, menus,
 * errors, lists): every page's chunk carries these. A post's and a list's own
 * words (sharing, listening, neighbours …) are in reading-labels.ts, in the
 * chunks of the routes that show them (decision 033's budget).
 */
export const LABELS = {
  english: {
    people: "People",
    quoteCountOne: "1 quote",
    quoteCountMany: "{count} quotes",
    privacyPolicy: "Privacy Policy",
    terms: "Terms and Conditions",
    contact: "Contact us",
    skipToContent: "Skip to content",
    home: "Home",
    latest: "Latest",
    posts: "Quotes",
    previous: "Previous",
    next: "Next",
    newer: "Newer",
    older: "Older",
    page: "Page",
    tags: "Tags",
    categories: "Categories",
    noPosts: "No quotes yet.",
    tag: "Tag",
    category: "Category",
    searchLabel: "Search quotes",
    searchButton: "Search",
    searchTooLong: "Search text is limited to {max} characters; yours has {length}.",
    searchEmpty: "Type a word to search for.",
    mainMenu: "Main",
    followUs: "Follow us",
    notFoundTitle: "Page not found",
    notFoundText: "We could not find that page. It may have moved, or the address may be mistyped.",
    errorTitle: "Something went wrong",
    errorText: "We could not show this page just now. Please try again in a moment.",
    reference: "Reference",
    goHome: "Go to the home page",
    // Reading comfort (decision 051: text size, Roman letters).
    textSize: "Text size",
    // Saved quotes (decision 050): the footer's link; the rest in save-labels.ts and saved-labels.ts.
    savedQuotes: "Saved quotes",
    // The language switch on pages of no language (decision 067).
    pageLanguage: "Language",
    // The main menu's link to /people (decision 066): short, to fit the menu at 320 px.
    peopleMenu: "People",
  },
  hindi: {
    people: "संत और लेखक",
    quoteCountOne: "1 सूक्ति",
    quoteCountMany: "{count} सूक्तियाँ",
    privacyPolicy: "गोपनीयता नीति",
    terms: "नियम और शर्तें",
    contact: "संपर्क करें",
    skipToContent: "मुख्य सामग्री पर जाएँ",
    home: "मुखपृष्ठ",
    latest: "नवीनतम",
    posts: "सूक्तियाँ",
    previous: "पिछला",
    next: "अगला",
    newer: "नए",
    older: "पुराने",
    page: "पृष्ठ",
    tags: "टैग",
    categories: "श्रेणियाँ",
    noPosts: "अभी कोई सूक्ति नहीं।",
    tag: "टैग",
    category: "श्रेणी",
    searchLabel: "सूक्तियाँ खोजें",
    searchButton: "खोजें",
    searchTooLong: "खोज का पाठ {max} अक्षरों तक सीमित है; आपके पाठ में {length} हैं।",
    searchEmpty: "खोजने के लिए कोई शब्द लिखें।",
    mainMenu: "मुख्य मेनू",
    followUs: "हमें फ़ॉलो करें",
    notFoundTitle: "पृष्ठ नहीं मिला",
    notFoundText: "हमें यह पृष्ठ नहीं मिला। हो सकता है यह हटा दिया गया हो, या पता ग़लत लिखा गया हो।",
    errorTitle: "कुछ गड़बड़ हो गई",
    errorText: "हम अभी यह पृष्ठ नहीं दिखा सके। कृपया थोड़ी देर में फिर कोशिश करें।",
    reference: "संदर्भ",
    goHome: "मुखपृष्ठ पर जाएँ",
    // Reading comfort (decision 051: text size, Roman letters).
    textSize: "अक्षरों का आकार",
    // Saved quotes (decision 050): the footer's link; the rest in save-labels.ts and saved-labels.ts.
    savedQuotes: "सहेजी गई सूक्तियाँ",
    // The language switch on pages of no language (decision 067).
    pageLanguage: "भाषा",
    // The main menu's link to /people (decision 066): short, to fit the menu at 320 px.
    peopleMenu: "रचनाकार",
  },
  marathi: {
    people: "संत आणि लेखक",
    quoteCountOne: "1 सुविचार",
    quoteCountMany: "{count} सुविचार",
    privacyPolicy: "गोपनीयता धोरण",
    terms: "नियम व अटी",
    contact: "संपर्क साधा",
    skipToContent: "मुख्य मजकुराकडे जा",
    home: "मुखपृष्ठ",
    latest: "नवीनतम",
    posts: "सुविचार",
    previous: "मागील",
    next: "पुढील",
    newer: "नवे",
    older: "जुने",
    page: "पान",
    tags: "टॅग",
    categories: "वर्ग",
    noPosts: "अजून एकही सुविचार नाही.",
    tag: "टॅग",
    category: "वर्ग",
    searchLabel: "सुविचार शोधा",
    searchButton: "शोधा",
    searchTooLong: "शोधाचा मजकूर {max} अक्षरांपर्यंत मर्यादित आहे; तुमच्या मजकुरात {length} आहेत.",
    searchEmpty: "शोधण्यासाठी एखादा शब्द लिहा.",
    mainMenu: "मुख्य मेनू",
    followUs: "आम्हाला फॉलो करा",
    notFoundTitle: "पान सापडले नाही",
    notFoundText: "आम्हाला हे पान सापडले नाही. ते हलवले गेले असेल, किंवा पत्ता चुकीचा लिहिला गेला असेल.",
    errorTitle: "काहीतरी चुकले",
    errorText: "आम्ही आत्ता हे पान दाखवू शकलो नाही. कृपया थोड्या वेळाने पुन्हा प्रयत्न करा.",
    reference: "संदर्भ",
    goHome: "मुखपृष्ठावर जा",
    // Reading comfort (decision 051: text size, Roman letters).
    textSize: "अक्षरांचा आकार",
    // Saved quotes (decision 050): the footer's link; the rest in save-labels.ts and saved-labels.ts.
    savedQuotes: "जतन केलेले सुविचार",
    // The language switch on pages of no language (decision 067).
    pageLanguage: "भाषा",
    // The main menu's link to /people (decision 066): short, to fit the menu at 320 px.
    peopleMenu: "रचनाकार",
  },
} satisfies Record<Language, Record<string, string>>;

export type Labels = (typeof LABELS)["english"];

export function labelsFor(language: Language): Labels {
  return LABELS[language];
}

/** "12 quotes", "1 सूक्ति": a count of quotes in the labels' language. */
export function quoteCount(labels: Labels, count: number): string {
  return count === 1 ? labels.quoteCountOne : labels.quoteCountMany.replace("{count}", String(count));
}
