// A published post as the public API answers it (decision 062;
// the schema is ApiPost in ./openapi.ts, docs/api.md shows an example): every
// address absolute on the site's origin (PUBLIC_URL, else the request's), the
// text plain and as the sanitized HTML the post page shows.
import { isoDateTime } from "#app/content/dates.ts";
import { htmlToText } from "#app/content/html-text.ts";
import { type Language, postPath } from "#app/content/languages.ts";
import type { Post } from "#app/content/model.ts";
import { toPostView } from "#app/content/post-view.ts";
import { shareImagePath } from "#app/share-image/content.ts";

export interface ApiPost {
  language: Language;
  slug: string;
  title: string;
  /** The text, paragraphs and line breaks as newlines. */
  text: string;
  /** The stored (sanitized) HTML, its site paths made absolute. */
  html: string;
  /** When it was posted, ISO 8601 in UTC. */
  date: string;
  url: string;
  /** The post's own image; null when it has none (the site then shows its default image). */
  imageUrl: string | null;
  /** The 1200×630 JPEG the post page names for link previews. */
  shareImageUrl: string;
  /** Who said or wrote it, named in the post's language. */
  person: { name: string; url: string } | null;
  work: string | null;
  reference: string | null;
  /** The post's published translations: language → address. */
  translations: Partial<Record<Language, string>>;
}

/** A site path on `origin`; an http(s) address as it is. */
function absolute(origin: string, url: string): string {
  return url.startsWith("/") && !url.startsWith("//") ? `${origin}${url}` : url;
}

/** Site paths in href= and src= made absolute, so the HTML means the same on another site. */
function absoluteLinks(origin: string, html: string): string {
  return html.replace(/\b(href|src)="\/(?!\/)/g, `$1="${origin}/`);
}

export function toApiPost(post: Post, origin: string): ApiPost {
  const view = toPostView(post);
  const person = view.source?.person ?? null;
  return {
    language: post.language,
    slug: post.slug,
    title: post.title,
    text: htmlToText(post.content),
    html: absoluteLinks(origin, post.content),
    date: isoDateTime(post.postTime),
    url: `${origin}${postPath(post.language, post.slug)}`,
    imageUrl: post.featureImageUrl === "" ? null : absolute(origin, post.featureImageUrl),
    shareImageUrl: `${origin}${shareImagePath(view)}`,
    person: person ? { name: person.name, url: `${origin}${person.href}` } : null,
    work: post.source?.work || null,
    reference: post.source?.reference || null,
    translations: Object.fromEntries(
      post.translations.map((t) => [t.language, `${origin}${postPath(t.language, t.slug)}`]),
    ),
  };
}
