// The words of reading a quote (sharing, copying, listening, neighbours, the
// quote of the day, people's pages, the offline page) in each page language:
// apart from labels.ts, whose frame words every page carries, so that only the
// routes that show these load them (decision 033's budget).
import { type Labels, labelsFor } from "#app/content/labels.ts";
import type { Language } from "#app/content/languages.ts";

export const READING_LABELS = {
  english: {
    readIn: "Read in",
    quotesBy: "Quotes by {name}",
    peopleIntro: "Whose words the collection holds, with their number of quotes in every language.",
    downloadImage: "Download image",
    related: "Related quotes",
    share: "Share",
    copyLink: "Copy link",
    copyText: "Copy text",
    copied: "Copied",
    copyFailed: "Could not copy. Select the text and copy it yourself.",
    quoteOfTheDay: "Quote of the day",
    previousPost: "Previous",
    nextPost: "Next",
    readMore: "Read more",
    postedOn: "Posted on",
    languageHome: "English quotes",
    subscribeFeed: "Subscribe to new quotes (RSS)",
    // Offline reading (decision 049): the service worker's offline page.
    offlineTitle: "You are offline",
    offlineText: "This page is not on this device. These quotes are, and you can read them now:",
    offlineNone: "No quotes are on this device yet: the ones you read while online will be here.",
    largerText: "Larger text",
    smallerText: "Smaller text",
    romanLetters: "Roman letters",
    // listen (decision 052)
    listen: "Listen",
    listenPause: "Pause",
    listenResume: "Resume",
    listenStop: "Stop",
    recording: "Recording",
    playbackSpeed: "Speed",
  },
  hindi: {
    readIn: "इन भाषाओं में भी पढ़ें",
    quotesBy: "{name} की सूक्तियाँ",
    peopleIntro: "जिनके वचन इस संग्रह में हैं, हर भाषा में उनकी सूक्तियों की संख्या के साथ।",
    downloadImage: "चित्र डाउनलोड करें",
    related: "संबंधित सूक्तियाँ",
    share: "साझा करें",
    copyLink: "लिंक कॉपी करें",
    copyText: "पाठ कॉपी करें",
    copied: "कॉपी हो गया",
    copyFailed: "कॉपी नहीं हो सका। पाठ चुनकर स्वयं कॉपी करें।",
    quoteOfTheDay: "आज की सूक्ति",
    previousPost: "पिछली",
    nextPost: "अगली",
    readMore: "और पढ़ें",
    postedOn: "प्रकाशित",
    languageHome: "हिंदी सूक्तियाँ",
    subscribeFeed: "नई सूक्तियों की सदस्यता लें (RSS)",
    // Offline reading (decision 049): the service worker's offline page.
    offlineTitle: "आप ऑफ़लाइन हैं",
    offlineText: "यह पृष्ठ इस डिवाइस पर नहीं है। ये सूक्तियाँ हैं, इन्हें आप अभी पढ़ सकते हैं:",
    offlineNone: "इस डिवाइस पर अभी कोई सूक्ति नहीं है: ऑनलाइन पढ़ी गई सूक्तियाँ यहाँ मिलेंगी।",
    largerText: "बड़े अक्षर",
    smallerText: "छोटे अक्षर",
    romanLetters: "रोमन लिपि में",
    // listen (decision 052)
    listen: "सुनें",
    listenPause: "रोकें",
    listenResume: "जारी रखें",
    listenStop: "बंद करें",
    recording: "रिकॉर्डिंग",
    playbackSpeed: "गति",
  },
  marathi: {
    readIn: "या भाषांमध्येही वाचा",
    quotesBy: "{name} यांचे सुविचार",
    peopleIntro: "ज्यांचे वचन या संग्रहात आहेत, प्रत्येक भाषेतील त्यांच्या सुविचारांच्या संख्येसह.",
    downloadImage: "चित्र डाउनलोड करा",
    related: "संबंधित सुविचार",
    share: "शेअर करा",
    copyLink: "लिंक कॉपी करा",
    copyText: "मजकूर कॉपी करा",
    copied: "कॉपी झाले",
    copyFailed: "कॉपी झाले नाही. मजकूर निवडून स्वतः कॉपी करा.",
    quoteOfTheDay: "आजचा सुविचार",
    previousPost: "मागील",
    nextPost: "पुढील",
    readMore: "अधिक वाचा",
    postedOn: "प्रकाशित",
    languageHome: "मराठी सुविचार",
    subscribeFeed: "नवीन सुविचारांची सदस्यता घ्या (RSS)",
    // Offline reading (decision 049): the service worker's offline page.
    offlineTitle: "तुम्ही ऑफलाइन आहात",
    offlineText: "हे पान या डिव्हाइसवर नाही. हे सुविचार आहेत, ते तुम्ही आत्ता वाचू शकता:",
    offlineNone: "या डिव्हाइसवर अजून कोणताही सुविचार नाही: ऑनलाइन वाचलेले सुविचार इथे दिसतील.",
    largerText: "मोठी अक्षरे",
    smallerText: "लहान अक्षरे",
    romanLetters: "रोमन लिपीत",
    // listen (decision 052)
    listen: "ऐका",
    listenPause: "थांबवा",
    listenResume: "पुढे ऐका",
    listenStop: "बंद करा",
    recording: "ध्वनिमुद्रण",
    playbackSpeed: "वेग",
  },
} satisfies Record<Language, Record<string, string>>;

export type ReadingLabels = Labels & (typeof READING_LABELS)["english"];

/** The frame's words and the reading ones, for a route that shows a quote or a list. */
export function readingLabelsFor(language: Language): ReadingLabels {
  let labels = merged.get(language);
  if (labels === undefined) {
    labels = Object.freeze({ ...labelsFor(language), ...READING_LABELS[language] });
    merged.set(language, labels);
  }
  return labels;
}

/** Each language's labels merged once: every card and control of a page asks for them. */
const merged = new Map<Language, ReadingLabels>();
