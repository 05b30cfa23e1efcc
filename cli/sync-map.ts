// A WordPress REST post (wp/v2/posts with _embed) as the import record the
// JSON and WXR importers produce (decision 053): the same fields, checked by
// the same schema (PostRecordSchema). Its language from Polylang or WPML's
// REST fields, else its categories, else --language; a post whose language
// cannot be told is skipped with its reason, never guessed.
import { decodeEntities } from "#app/content/html-text.ts";
import type { Language } from "#app/content/languages.ts";
import { cutText, describeIssues, type PostRecord, PostRecordSchema, quote } from "#app/content/schemas.ts";
import { slugify } from "#app/content/slugs.ts";
import { SOURCE_PARTS, type SourceFieldRef, type SourceFields, sourceRecord } from "#cli/source.ts";
import { excerptText } from "#cli/wxr/items.ts";
import { languageOfLocale, languageOfTerm } from "#cli/wxr/languages.ts";
import { decodeSlug } from "#cli/wxr/slugs.ts";

/** The fields of a REST post sync reads (others are ignored). */
export interface WpPost {
  id: number;
  date_gmt?: string | null;
  modified_gmt?: string;
  slug?: string;
  status?: string;
  type?: string;
  link?: string;
  title?: { rendered?: string };
  content?: { rendered?: string; protected?: boolean };
  excerpt?: { rendered?: string; protected?: boolean };
  author?: number;
  featured_media?: number;
  categories?: number[];
  tags?: number[];
  /** Polylang (Pro, or a REST add-on): the language's slug, and the group {slug: post id}. */
  lang?: string;
  translations?: Record<string, number>;
  /** WPML: "hi_IN", and the group [{locale, id}]. */
  wpml_current_locale?: string;
  wpml_translations?: { locale?: string; id?: number }[];
  meta?: Record<string, unknown>;
  acf?: Record<string, unknown>;
  _embedded?: {
    author?: { id?: number; name?: string; slug?: string }[];
    "wp:featuredmedia"?: WpMedia[];
    "wp:term"?: { id?: number; name?: string; slug?: string; taxonomy?: string }[][];
  };
}

export interface WpMedia {
  id?: number;
  source_url?: string;
  mime_type?: string;
  media_type?: string;
  code?: string;
}

export interface MapOptions {
  /** --language: for posts nothing else gives a language. */
  language?: Language;
  /** --language-category: a category slug (or name) per language. */
  languageCategories?: Partial<Record<Language, string>>;
  /** --source-field; by default the person is the post's author. */
  sourceFields?: SourceFields;
}

export type Mapped =
  | { kind: "post"; record: PostRecord; media: WpMedia | null }
  | { kind: "skip"; reason: string };

/** "post 12 \"a-slug\"": a REST post in messages. */
export function describePost(post: WpPost): string {
  const slug = typeof post.slug === "string" && post.slug !== "" ? ` ${quote(decodeSlug(post.slug))}` : "";
  return `post ${post.id}${slug}`;
}

/** "2026-11-25T10:00:00" (WordPress's *_gmt, no zone) as epoch seconds; null when unreadable. */
export function gmtSeconds(value: unknown): number | null {
  if (typeof value !== "string") return null;
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})/.exec(value);
  if (!match || value.startsWith("0000")) return null;
  const [, y, mo, d, h, mi, s] = match.map(Number) as number[];
  return Date.UTC(y as number, (mo as number) - 1, d, h, mi, s) / 1000;
}

function terms(post: WpPost, taxonomy: string) {
  return (post._embedded?.["wp:term"] ?? [])
    .flat()
    .filter((term) => term && term.taxonomy === taxonomy && typeof term.name === "string")
    .map((term) => ({ name: decodeEntities(term.name ?? "").trim(), slug: decodeSlug(term.slug ?? "") }));
}

/** The language a category gives: --language-category's slugs first, then names/slugs English, हिंदी … */
function categoryLanguage(
  category: { name: string; slug: string },
  given: Partial<Record<Language, string>>,
): Language | null {
  for (const [language, wanted] of Object.entries(given) as [Language, string][]) {
    const folded = wanted.normalize("NFC").trim().toLowerCase();
    if (category.slug.toLowerCase() === folded || category.name.normalize("NFC").toLowerCase() === folded)
      return language;
  }
  return languageOfTerm(category.name) ?? languageOfTerm(category.slug);
}

/** The language of the post and the categories that said so (not kept as categories). */
function languageOf(
  post: WpPost,
  categories: { name: string; slug: string }[],
  options: MapOptions,
): { language: Language; languageCategories: Set<string> } | { skip: string } {
  const none = new Set<string>();
  if (typeof post.lang === "string" && post.lang.trim() !== "") {
    const language = languageOfLocale(post.lang);
    if (language) return { language, languageCategories: none };
    return { skip: `language ${quote(cutText(post.lang, 40))} (Polylang; not English, Hindi or Marathi)` };
  }
  if (typeof post.wpml_current_locale === "string" && post.wpml_current_locale.trim() !== "") {
    const language = languageOfLocale(post.wpml_current_locale);
    if (language) return { language, languageCategories: none };
    return {
      skip: `language ${quote(cutText(post.wpml_current_locale, 40))} (WPML; not English, Hindi or Marathi)`,
    };
  }
  const given = options.languageCategories ?? {};
  const named = new Map<Language, string[]>();
  for (const category of categories) {
    const language = categoryLanguage(category, given);
    if (language) named.set(language, [...(named.get(language) ?? []), category.slug]);
  }
  if (named.size === 1) {
    const [[language, slugs]] = [...named] as [[Language, string[]]];
    return { language, languageCategories: new Set(slugs) };
  }
  if (named.size > 1) {
    return { skip: `language: its categories name ${[...named.keys()].join(" and ")}` };
  }
  if (options.language) return { language: options.language, languageCategories: none };
  return {
    skip: "language unknown: no Polylang or WPML language, no language category, and no --language",
  };
}

/** A WordPress-made excerpt (none was written): its text ends in "[…]" or links "Continue reading". */
function ownExcerpt(rendered: string): string {
  if (/class="more-link"/.test(rendered)) return "";
  const text = excerptText(rendered);
  return /\[(?:…|&hellip;|\.\.\.)\]$/.test(text) ? "" : text;
}

/** Polylang's or WPML's group as a translation key: the group's lowest post id. */
function translationKeyOf(post: WpPost): string | undefined {
  if (post.translations && typeof post.translations === "object") {
    const ids = Object.values(post.translations).filter((id) => Number.isInteger(id));
    if (ids.length > 1) return `wp-${Math.min(post.id, ...ids)}`;
  }
  if (Array.isArray(post.wpml_translations) && post.wpml_translations.length > 0) {
    const ids = post.wpml_translations
      .map((entry) => entry?.id)
      .filter((id) => Number.isInteger(id)) as number[];
    if (ids.length > 0) return `wp-${Math.min(post.id, ...ids)}`;
  }
  return undefined;
}

function fieldText(post: WpPost, ref: SourceFieldRef): string {
  const author = post._embedded?.author?.[0]?.name;
  const raw =
    ref.from === "author"
      ? author
      : (post.meta?.[ref.key] ??
        post.acf?.[ref.key] ??
        (post as unknown as Record<string, unknown>)[ref.key]);
  const value = Array.isArray(raw) ? raw[0] : raw;
  return typeof value === "string" || typeof value === "number"
    ? decodeEntities(String(value)).normalize("NFC").trim()
    : "";
}

function sourceOf(post: WpPost, fields: SourceFields | undefined): Record<string, unknown> | undefined {
  const source: Record<string, string> = {};
  for (const part of SOURCE_PARTS) {
    const ref = fields ? fields[part] : part === "person" ? ({ from: "author" } as const) : undefined;
    if (!ref) continue;
    const text = fieldText(post, ref);
    if (text !== "") source[part] = text;
  }
  return sourceRecord(source);
}

/**
 * The import record of a published REST post, or why it is skipped. The
 * featured image is left "" here: sync fills in its local copy.
 */
export function mapPost(post: WpPost, options: MapOptions): Mapped {
  if (post.content?.protected) return { kind: "skip", reason: "password-protected" };
  const categories = terms(post, "category");
  const found = languageOf(post, categories, options);
  if ("skip" in found) return { kind: "skip", reason: found.skip };
  const { language, languageCategories } = found;
  const postTime = gmtSeconds(post.date_gmt);
  if (postTime === null) return { kind: "skip", reason: "postTime: date_gmt is empty or unreadable" };
  const title = excerptText(post.title?.rendered ?? "");
  const slug = decodeSlug(post.slug ?? "").normalize("NFC") || slugify(title);
  const translationKey = translationKeyOf(post);
  const source = sourceOf(post, options.sourceFields);
  const value = {
    idNum: post.id,
    language,
    status: "publish",
    postTime,
    title,
    slug,
    featureImageUrl: "",
    content: post.content?.rendered ?? "",
    excerpt: post.excerpt?.protected ? "" : ownExcerpt(post.excerpt?.rendered ?? ""),
    tags: terms(post, "post_tag").map((term) => term.name),
    categories: categories
      .filter((term) => !languageCategories.has(term.slug) && term.slug !== "uncategorized")
      .map((term) => term.name),
    ...(translationKey === undefined ? {} : { translationKey }),
    ...(source === undefined ? {} : { source }),
  };
  const result = PostRecordSchema.safeParse(value, { reportInput: true });
  if (!result.success) return { kind: "skip", reason: describeIssues(result.error).join("; ") };
  const media = post._embedded?.["wp:featuredmedia"]?.[0] ?? null;
  return {
    kind: "post",
    record: result.data,
    media: post.featured_media && media && !media.code ? media : null,
  };
}
