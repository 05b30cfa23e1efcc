// The words of embeds (decision 063): the "Embed" box on post
// pages and the embed page itself. Apart from labels.ts, which every page
// loads (decision 033): only post pages and /embed/… need these.
import type { Language } from "#app/content/languages.ts";

export const EMBED_LABELS = {
  english: {
    embed: "Embed",
    embedHint: "Paste this code into your web page to show this quote there.",
    embedCode: "Embed code",
    copyCode: "Copy code",
    /** {site}: the site's name. */
    readOn: "Read on {site}",
    notFound: "This quote is not available.",
    visitSite: "Visit {site}",
  },
  hindi: {
    embed: "एम्बेड करें",
    embedHint: "यह सूक्ति अपने वेब पेज पर दिखाने के लिए यह कोड वहाँ चिपकाएँ।",
    embedCode: "एम्बेड कोड",
    copyCode: "कोड कॉपी करें",
    readOn: "{site} पर पढ़ें",
    notFound: "यह सूक्ति उपलब्ध नहीं है।",
    visitSite: "{site} पर जाएँ",
  },
  marathi: {
    embed: "एम्बेड करा",
    embedHint: "हा सुविचार आपल्या वेब पानावर दाखवण्यासाठी हा कोड तिथे चिकटवा.",
    embedCode: "एम्बेड कोड",
    copyCode: "कोड कॉपी करा",
    readOn: "{site} वर वाचा",
    notFound: "हा सुविचार उपलब्ध नाही.",
    visitSite: "{site} ला भेट द्या",
  },
} satisfies Record<Language, Record<string, string>>;

export type EmbedLabels = (typeof EMBED_LABELS)["english"];
