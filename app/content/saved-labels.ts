// The words of /saved and of a shared collection (decision 050),
// in each page language; the Save button's own are in save-labels.ts.
// Not in labels.ts: that module is in every page's JavaScript (the home's
// included, decision 033), and only these two pages show them.
import type { Language } from "#app/content/languages.ts";

export const SAVED_LABELS = {
  english: {
    savedEmpty: "You have not saved any quotes yet. Press “Save” on a quote and it will be listed here.",
    savedOnlyHere: "Kept in this browser only; nothing is sent to us.",
    savedNeedsScript: "Turn on JavaScript to see the quotes saved in this browser.",
    shareCollection: "Share this list",
    shareCollectionNote: "Anyone with this link sees the list (your newest 100 quotes).",
    collectionTitle: "Shared quotes",
    collectionIntro: "Someone shared these quotes with you.",
    collectionEmpty: "None of the quotes in this list can be shown any more.",
  },
  hindi: {
    savedEmpty: "आपने अभी कोई सूक्ति नहीं सहेजी है। किसी सूक्ति पर “सहेजें” दबाएँ, वह यहाँ दिखेगी।",
    savedOnlyHere: "ये केवल इसी ब्राउज़र में रखी हैं; हमें कुछ नहीं भेजा जाता।",
    savedNeedsScript: "इस ब्राउज़र में सहेजी गई सूक्तियाँ देखने के लिए JavaScript चालू करें।",
    shareCollection: "यह सूची साझा करें",
    shareCollectionNote: "इस लिंक से कोई भी यह सूची देख सकता है (आपकी नवीनतम 100 सूक्तियाँ)।",
    collectionTitle: "साझा की गई सूक्तियाँ",
    collectionIntro: "किसी ने ये सूक्तियाँ आपके साथ साझा की हैं।",
    collectionEmpty: "इस सूची की कोई भी सूक्ति अब दिखाई नहीं जा सकती।",
  },
  marathi: {
    savedEmpty: "तुम्ही अजून एकही सुविचार जतन केलेला नाही. एखाद्या सुविचारावर “जतन करा” दाबा, तो इथे दिसेल.",
    savedOnlyHere: "हे फक्त याच ब्राउझरमध्ये ठेवले आहेत; आम्हाला काहीही पाठवले जात नाही.",
    savedNeedsScript: "या ब्राउझरमध्ये जतन केलेले सुविचार पाहण्यासाठी JavaScript सुरू करा.",
    shareCollection: "ही यादी शेअर करा",
    shareCollectionNote: "या लिंकने कोणीही ही यादी पाहू शकतो (तुमचे नवीनतम 100 सुविचार).",
    collectionTitle: "शेअर केलेले सुविचार",
    collectionIntro: "कोणीतरी हे सुविचार तुमच्यासोबत शेअर केले आहेत.",
    collectionEmpty: "या यादीतील कोणताही सुविचार आता दाखवता येत नाही.",
  },
} satisfies Record<Language, Record<string, string>>;

export type SavedLabels = (typeof SAVED_LABELS)["english"];

export function savedLabelsFor(language: Language): SavedLabels {
  return SAVED_LABELS[language];
}
