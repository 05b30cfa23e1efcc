// What crawlers and link-preview bots read in <head>: titles, descriptions,
// canonical and hreflang links, Open Graph and Twitter cards (a post's own,
// with its JSON-LD: ./post-meta.ts).
// Pure: route `meta` functions call these on the server and in the browser.
import type { MetaDescriptor } from "react-router";
import { LANG_TAG, LANGUAGES, type Language } from "#app/content/languages.ts";

/** Open Graph locales: the site is written for readers in India. */
export const OG_LOCALE: Record<Language, "en_IN" | "hi_IN" | "mr_IN"> = {
  english: "en_IN",
  hindi: "hi_IN",
  marathi: "mr_IN",
};

/** The id of the layout route whose loader hands meta functions the public origin. */
export const SITE_HEAD_ROUTE_ID = "routes/site-head";

/** The public origin, from the site-head layout's loader data among the meta matches. */
export function originOf(matches: readonly ({ id: string; loaderData?: unknown } | undefined)[]): string {
  const data = matches.find((match) => match?.id === SITE_HEAD_ROUTE_ID)?.loaderData as
    | { origin?: unknown }
    | undefined;
  return typeof data?.origin === "string" ? data.origin : "";
}

/** The site's square icon, the preview image of pages that have no picture of their own. */
export const SITE_IMAGE = { src: "/icons/icon-512.png", width: 512, height: 512 } as const;

/** Search engines show about 155–160 characters; cut at a word and mark the cut. */
export function summarize(text: string, max = 160): string {
  const flat = text.replace(/\s+/g, " ").trim();
  if (flat.length <= max) return flat;
  const cut = flat.slice(0, max - 1);
  const space = cut.lastIndexOf(" ");
  return `${(space > max / 2 ? cut.slice(0, space) : cut).replace(/[\s,;:—–-]+$/u, "")}…`;
}

/** `?page=N` for pages after the first: each page of a list is its own canonical address. */
export function pagedPath(path: string, page: number): string {
  return page > 1 ? `${path}?page=${page}` : path;
}

/** Pages that exist in all three languages: the home page and the language homes. */
export function languageAlternates(origin: string) {
  return [
    ...LANGUAGES.map((language) => ({
      tagName: "link" as const,
      rel: "alternate",
      hrefLang: LANG_TAG[language] as string,
      href: `${origin}/${language}/home`,
    })),
    { tagName: "link" as const, rel: "alternate", hrefLang: "x-default", href: `${origin}/` },
  ] satisfies MetaDescriptor[];
}

export interface PageMetaInput {
  origin: string;
  /** The site's name (siteOf(matches).name: the running identity). */
  siteName: string;
  title: string;
  description: string;
  /** Root-relative path of the page's canonical address. */
  path: string;
  language: Language;
  type?: "website" | "article";
  image?: { url: string; width: number; height: number; alt: string };
}

/** Title, description, canonical link and the Open Graph / Twitter tags every page carries. */
export function pageMeta(input: PageMetaInput): MetaDescriptor[] {
  const url = `${input.origin}${input.path}`;
  const image = input.image ?? {
    url: `${input.origin}${SITE_IMAGE.src}`,
    width: SITE_IMAGE.width,
    height: SITE_IMAGE.height,
    alt: input.siteName,
  };
  const large = image.width > image.height;
  return [
    { title: input.title },
    { name: "description", content: input.description },
    { tagName: "link", rel: "canonical", href: url },
    { property: "og:site_name", content: input.siteName },
    { property: "og:type", content: input.type ?? "website" },
    { property: "og:title", content: input.title },
    { property: "og:description", content: input.description },
    { property: "og:url", content: url },
    { property: "og:locale", content: OG_LOCALE[input.language] },
    { property: "og:image", content: image.url },
    { property: "og:image:width", content: String(image.width) },
    { property: "og:image:height", content: String(image.height) },
    { property: "og:image:alt", content: image.alt },
    { name: "twitter:card", content: large ? "summary_large_image" : "summary" },
    { name: "twitter:title", content: input.title },
    { name: "twitter:description", content: input.description },
    { name: "twitter:image", content: image.url },
    { name: "twitter:image:alt", content: image.alt },
  ];
}

/** The meta description of each language home, in its language. */
export const LANGUAGE_HOME_DESCRIPTION: Record<Language, string> = {
  english:
    "Short sayings of the saints in English: a quote for every day, and the whole collection, newest first.",
  hindi: "संतों की सूक्तियाँ हिंदी में: हर दिन एक सूक्ति, और पूरा संग्रह, नवीनतम पहले।",
  marathi: "संतांचे सुविचार मराठीत: रोज एक सुविचार, आणि संपूर्ण संग्रह, नवीन आधी.",
};
