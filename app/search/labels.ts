import type { Language } from "#app/content/languages.ts";

/**
 * The search page's words, in the language its address names (decision 067):
 * its headings and counts, a hit's meta line and the filter on results
 * (decision 065). Apart from labels.ts, which every page's frame carries, so
 * only the search route's chunk holds them.
 */
export const SEARCH_LABELS = {
  english: {
    lang: "en",
    matchedAs: "Matched as",
    tags: "Tags",
    categories: "Categories",
    show: "Show",
    allLanguages: "All",
    languagesLabel: "Languages of the results",
    title: "Search",
    resultsFor: "Search results for",
    description: "Search the quotes in English, Hindi and Marathi.",
    matching: "Quotes matching “{text}” in English, Hindi and Marathi.",
    formIntro:
      "Type a word in the search box above, in English, Hindi or Marathi, or spelled in Latin letters:",
    invalid:
      "This search address is not valid text, so nothing was searched. Type your words in the search box above.",
    none: "No quotes found",
    one: "1 quote found",
    many: "{count} quotes found",
    more: "More than {count} quotes found",
    cut: "Search text is limited to {max} characters; we searched for the first {max}.",
    firstWords: "Only the first {max} words were searched.",
    someWords: "No quote has all of these words; these have some of them.",
  },
  hindi: {
    lang: "hi",
    matchedAs: "इस रूप में मिला",
    tags: "टैग",
    categories: "श्रेणियाँ",
    show: "दिखाएँ",
    allLanguages: "सभी",
    languagesLabel: "परिणामों की भाषा",
    title: "खोज",
    resultsFor: "खोज के परिणाम:",
    description: "अंग्रेज़ी, हिंदी और मराठी की सूक्तियाँ खोजें।",
    matching: "“{text}” से मेल खाती सूक्तियाँ, अंग्रेज़ी, हिंदी और मराठी में।",
    formIntro: "ऊपर के खोज-बॉक्स में कोई शब्द लिखें, अंग्रेज़ी, हिंदी या मराठी में, या लैटिन अक्षरों में:",
    invalid: "खोज का यह पता मान्य पाठ नहीं है, इसलिए कुछ नहीं खोजा गया। अपने शब्द ऊपर के खोज-बॉक्स में लिखें।",
    none: "कोई सूक्ति नहीं मिली",
    one: "1 सूक्ति मिली",
    many: "{count} सूक्तियाँ मिलीं",
    more: "{count} से अधिक सूक्तियाँ मिलीं",
    cut: "खोज का पाठ {max} अक्षरों तक सीमित है; हमने पहले {max} अक्षर खोजे।",
    firstWords: "केवल पहले {max} शब्द खोजे गए।",
    someWords: "किसी सूक्ति में ये सभी शब्द नहीं हैं; इनमें इनमें से कुछ हैं।",
  },
  marathi: {
    lang: "mr",
    matchedAs: "या रूपात सापडले",
    tags: "टॅग",
    categories: "वर्ग",
    show: "दाखवा",
    allLanguages: "सर्व",
    languagesLabel: "निकालांची भाषा",
    title: "शोध",
    resultsFor: "शोधाचे निकाल:",
    description: "इंग्रजी, हिंदी आणि मराठीतील सुविचार शोधा.",
    matching: "“{text}” शी जुळणारे सुविचार, इंग्रजी, हिंदी आणि मराठीत.",
    formIntro: "वरच्या शोध-चौकटीत एखादा शब्द लिहा, इंग्रजी, हिंदी किंवा मराठीत, किंवा लॅटिन अक्षरांत:",
    invalid: "शोधाचा हा पत्ता वैध मजकूर नाही, म्हणून काहीही शोधले नाही. तुमचे शब्द वरच्या शोध-चौकटीत लिहा.",
    none: "एकही सुविचार सापडला नाही",
    one: "1 सुविचार सापडला",
    many: "{count} सुविचार सापडले",
    more: "{count} पेक्षा जास्त सुविचार सापडले",
    cut: "शोधाचा मजकूर {max} अक्षरांपर्यंत मर्यादित आहे; आम्ही पहिली {max} अक्षरे शोधली.",
    firstWords: "फक्त पहिले {max} शब्द शोधले.",
    someWords: "कोणत्याही सुविचारात हे सर्व शब्द नाहीत; यांत त्यांपैकी काही आहेत.",
  },
} satisfies Record<Language, Record<string, string>>;

/** A label with its {name}s filled in. */
export function fill(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) =>
    name in values ? String(values[name]) : whole,
  );
}

export type SearchLabels = (typeof SEARCH_LABELS)["english"];

/** The language whose posts a search shows (?language=, decision 065): null is all of them. */
export function resultsLanguageOf(url: URL): Language | null {
  const value = url.searchParams.get("language");
  return value === "english" || value === "hindi" || value === "marathi" ? value : null;
}

/** A search page's address with its filter (and page), as canonical-url.ts writes it. */
export function searchPageHref(basePath: string, language: Language | null, page = 1): string {
  const query = new URLSearchParams();
  if (language) query.set("language", language);
  if (page > 1) query.set("page", String(page));
  return query.size > 0 ? `${basePath}?${query}` : basePath;
}
