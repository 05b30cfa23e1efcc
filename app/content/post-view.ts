import { isoDateTime, postDateTime } from "#app/content/dates.ts";
import { LANG_TAG, postPath } from "#app/content/languages.ts";
import type { Post, PostSummary } from "#app/content/model.ts";
import { toSourceView, toTranslationLinks } from "#app/content/post-source.ts";
import { summarize } from "#app/content/seo.ts";
import { listCardVersion } from "#app/share-image/list-card.ts";
import { currentSite } from "#app/site.ts";

/** What a list, tile or hero needs of a post, with display values computed once on the server. */
export function toPostCard(post: PostSummary) {
  return {
    href: postPath(post.language, post.slug),
    /** With the language, what a saved quote and a shared collection name the post by. */
    idNum: post.idNum,
    slug: post.slug,
    title: post.title,
    excerpt: post.excerpt,
    language: post.language,
    lang: LANG_TAG[post.language],
    image: post.featureImageUrl || currentSite().defaultImage.src,
    hasOwnImage: post.featureImageUrl !== "",
    /** A post without an image: its list card's version (app/share-image/list-card.ts); null otherwise. */
    cardVersion: post.featureImageUrl === "" ? listCardVersion(post) : null,
    postDateTime: postDateTime(post.postTime, currentSite().timeZone),
    isoDateTime: isoDateTime(post.postTime),
  };
}
export type PostCard = ReturnType<typeof toPostCard>;

export function toPostView(post: Post) {
  const { name, logo } = currentSite();
  return {
    ...toPostCard(post),
    /** The site as the post's share image shows it (its address changes with them). */
    brand: { name, logo: logo.src },
    content: post.content,
    /** The teacher's recording (decision 052): an address or a site path; "" is none. */
    audio: post.audioUrl,
    tags: post.tags.map(({ name, slug }) => ({ name, href: `/tag/${encodeURIComponent(slug)}` })),
    categories: post.categories.map(({ name, slug }) => ({
      name,
      href: `/category/${encodeURIComponent(slug)}`,
    })),
    source: toSourceView(post.source, post.language),
    translations: toTranslationLinks(post.translations),
  };
}
export type PostView = ReturnType<typeof toPostView>;

/** `?page=N`: a positive integer, or null for anything else (the route answers 404). */
export function parsePageParam(request: Request): number | null {
  const raw = new URL(request.url).searchParams.get("page");
  if (raw === null) return 1;
  if (!/^[1-9][0-9]{0,5}$/.test(raw)) return null;
  return Number(raw);
}

export const POSTS_PER_PAGE = 24;

const SENTENCE_END = /[.!?।॥…"”’')]$/u;

/**
 * An excerpt shown as a teaser (the quote of the day): at most `max`
 * characters, cut at a sentence end when one falls in its second half, else
 * at a word end, with an ellipsis after; an excerpt that stops on a colon, comma or
 * dash (the quote goes on) ends with an ellipsis instead.
 */
export function teaserText(text: string, max = 220): string {
  const flat = text.replace(/\s+/g, " ").trim();
  if (flat === "" || (SENTENCE_END.test(flat) && flat.length <= max)) return flat;
  if (flat.length <= max) return `${flat.replace(/[\s,;:—–-]+$/u, "")}…`;
  const cut = flat.slice(0, max);
  const sentence = Math.max(...[". ", "! ", "? ", "। ", "॥ "].map((end) => cut.lastIndexOf(end)));
  if (sentence > max / 2) return `${cut.slice(0, sentence + 1)} …`;
  return summarize(flat, max);
}
