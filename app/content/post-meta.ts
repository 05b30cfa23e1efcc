// What crawlers and link-preview bots read in a post's <head>: its share image
// as the preview, article tags, hreflang links to its translations, and
// JSON-LD (a BlogPosting carrying the Quotation, its author and translations).
// Apart from the other pages' meta (./seo.ts), so pages without a post do not
// load the share image code.

import type { MetaDescriptor } from "react-router";
import { audioTypeOf } from "#app/content/audio.ts";
import { htmlToText } from "#app/content/html-text.ts";
import { LANG_TAG } from "#app/content/languages.ts";
import { pageMeta, SITE_IMAGE, summarize } from "#app/content/seo.ts";
import {
  SHARE_IMAGE_HEIGHT,
  SHARE_IMAGE_WIDTH,
  type ShareImageSource,
  shareImagePath,
  shareText,
} from "#app/share-image/content.ts";
import type { PublicSite } from "#app/site.ts";

/** A site path made absolute on `origin`; an http(s) address as it is. */
export function absoluteUrl(origin: string, url: string): string {
  return url.startsWith("/") ? `${origin}${url}` : url;
}

export interface PostMetaInput extends ShareImageSource {
  excerpt: string;
  isoDateTime: string;
  tags: { name: string }[];
  categories: { name: string }[];
  source?: {
    person: { name: string; href: string } | null;
    work: string;
    reference: string;
    line: string;
  } | null;
  /** The post in other languages. */
  translations?: { lang: string; href: string; title: string }[];
  /** The teacher's recording (decision 052); "" or absent is none. */
  audio?: string;
}

/** hreflang links for a post and its translations: none when it has no translation. */
export function postAlternates(
  origin: string,
  post: { lang: string; href: string },
  translations: readonly { lang: string; href: string }[],
): MetaDescriptor[] {
  if (translations.length === 0) return [];
  return [post, ...translations].map((page) => ({
    tagName: "link" as const,
    rel: "alternate",
    hrefLang: page.lang,
    href: `${origin}${page.href}`,
  }));
}

/** A post: article tags, its share image as the preview, and JSON-LD (a BlogPosting carrying the Quotation). */
export function postMeta(
  origin: string,
  post: PostMetaInput,
  canonicalUrl: string,
  site: Pick<PublicSite, "name" | "teacherName">,
): MetaDescriptor[] {
  // The post's text only where it has no excerpt.
  const description = summarize(post.excerpt || htmlToText(post.content) || post.title);
  const imageUrl = `${origin}${shareImagePath(post)}`;
  const { quote, attribution } = shareText(post.content, post.source?.line);
  const title = `${post.title} · ${site.name}`;
  const person = post.source?.person;
  const author = person
    ? { "@type": "Person", name: person.name, url: `${origin}${person.href}` }
    : { "@type": "Person", name: site.teacherName };
  const translations = post.translations ?? [];
  const path = canonicalUrl.startsWith(origin) ? canonicalUrl.slice(origin.length) : canonicalUrl;
  const base = pageMeta({
    siteName: site.name,
    origin,
    title,
    description,
    path,
    language: post.language,
    type: "article",
    image: { url: imageUrl, width: SHARE_IMAGE_WIDTH, height: SHARE_IMAGE_HEIGHT, alt: post.title },
  });
  return [
    ...base,
    { property: "og:image:type", content: "image/jpeg" },
    { property: "article:published_time", content: post.isoDateTime },
    ...post.categories.map((category) => ({ property: "article:section", content: category.name })),
    ...post.tags.map((tag) => ({ property: "article:tag", content: tag.name })),
    ...postAlternates(origin, { lang: LANG_TAG[post.language], href: path }, translations),
    // oEmbed discovery (decision 063): consumers find the embed from the post's address.
    {
      tagName: "link",
      rel: "alternate",
      type: "application/json+oembed",
      href: `${origin}/oembed?url=${encodeURIComponent(canonicalUrl)}&format=json`,
      title: post.title,
    },
    {
      "script:ld+json": {
        "@context": "https://schema.org",
        "@type": "BlogPosting",
        headline: post.title.slice(0, 110),
        description,
        url: canonicalUrl,
        mainEntityOfPage: canonicalUrl,
        image: {
          "@type": "ImageObject",
          url: imageUrl,
          width: SHARE_IMAGE_WIDTH,
          height: SHARE_IMAGE_HEIGHT,
        },
        datePublished: post.isoDateTime,
        inLanguage: LANG_TAG[post.language],
        author,
        publisher: {
          "@type": "Organization",
          name: site.name,
          logo: { "@type": "ImageObject", url: `${origin}${SITE_IMAGE.src}` },
        },
        keywords: post.tags.map((tag) => tag.name).join(", ") || undefined,
        ...(translations.length > 0
          ? {
              workTranslation: translations.map((translation) => ({
                "@type": "BlogPosting",
                headline: translation.title.slice(0, 110),
                url: `${origin}${translation.href}`,
                inLanguage: translation.lang,
              })),
            }
          : {}),
        ...(post.audio
          ? {
              audio: {
                "@type": "AudioObject",
                contentUrl: absoluteUrl(origin, post.audio),
                encodingFormat: audioTypeOf(post.audio) ?? undefined,
                inLanguage: LANG_TAG[post.language],
              },
            }
          : {}),
        mainEntity: {
          "@type": "Quotation",
          text: quote.length > 0 ? quote.join("\n") : post.title,
          inLanguage: LANG_TAG[post.language],
          author,
          ...(attribution ? { citation: attribution } : {}),
        },
      },
    },
  ];
}
