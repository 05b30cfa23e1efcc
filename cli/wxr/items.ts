import sanitizeHtml from "sanitize-html";
import { decodeEntities, htmlToPlainText } from "#app/content/html-text.ts";
import type { Language } from "#app/content/languages.ts";
import { cutText } from "#app/content/schemas.ts";
import { slugify } from "#app/content/slugs.ts";
import { titleFromContent } from "#app/content/untitled.ts";
import { moreTeaser, wordpressContent } from "#app/content/wordpress-content.ts";
import { SOURCE_PARTS, type SourceFields, type SourceItem, sourceRecord } from "#cli/source.ts";
import { audioKey } from "#cli/wxr/audio.ts";
import { languageOfTerm, pluginLanguage, translationKeyOf } from "#cli/wxr/languages.ts";
import { decodeSlug } from "#cli/wxr/slugs.ts";
import { postTimeOf } from "#cli/wxr/time-zone.ts";
import type { WxrContext, WxrItem } from "#cli/wxr/types.ts";

/** The text of an HTML excerpt: tags dropped, entities decoded, spaces collapsed. */
export function excerptText(html: string): string {
  return htmlToPlainText(sanitizeHtml(html, { allowedTags: [], allowedAttributes: {} })).trim();
}

export function itemLabel(item: WxrItem): string {
  return `item ${item.index} (wp:post_id ${cutText(item.postId, 40) || "?"})`;
}

/** One WXR item as the importer sees it: a post or page record to validate, or a skip with its reason. */
export function mapWxrItem(item: WxrItem, context: WxrContext): SourceItem {
  const label = itemLabel(item);
  const type = item.postType || "post";
  if (type === "attachment") return { kind: "skip", label, reason: "attachment (used for featured images)" };
  if (type !== "post" && type !== "page")
    return { kind: "skip", label, reason: `post_type ${cutText(type, 40)}` };
  const wpStatus = item.status || "publish";
  if (wpStatus === "auto-draft" || wpStatus === "inherit")
    return { kind: "skip", label, reason: `status ${wpStatus}` };
  const title = decodeEntities(item.title).trim();
  if (title === "" && wpStatus !== "publish") return { kind: "skip", label, reason: `untitled ${wpStatus}` };
  const content = wordpressContent(item.content);
  // Drafts and untitled posts have no wp:post_name: derive one from the title
  // (an untitled post's is made from its opening words, as the schema makes its title).
  const slugBase = () => slugify(title || titleFromContent(content));

  if (type === "page") {
    if (item.postPassword !== "") return { kind: "skip", label, reason: "password-protected page" };
    if (wpStatus !== "publish")
      return { kind: "skip", label, reason: `page with status ${cutText(wpStatus, 40)}` };
    return {
      kind: "page",
      label,
      value: { slug: decodeSlug(item.postName) || slugBase(), title, content },
    };
  }
  // A password-protected post is never public: stored as private (a copy
  // published by an earlier import leaves the site), whatever else its status.
  const locked = item.postPassword !== "";
  const status = locked && (wpStatus === "publish" || wpStatus === "future") ? "private" : wpStatus;

  const terms = item.terms.map((term) => ({ ...term, name: decodeEntities(term.name).trim() }));
  const plugin = pluginLanguage(item, terms, context);
  if (plugin?.language === null) {
    return {
      kind: "skip",
      label,
      reason: `language ${cutText(plugin.code, 40)} (not English, Hindi or Marathi)`,
    };
  }
  const named = new Set(
    terms
      .filter((term) => TERM_DOMAINS.has(term.domain))
      .map((term) => languageOfTerm(term.name))
      .filter((l) => l !== null),
  );
  const fallback = context.language ?? context.fileLanguage;
  const [onlyNamed] = named;
  let language: Language;
  if (plugin?.language) language = plugin.language;
  else if (named.size === 1 && onlyNamed !== undefined) language = onlyNamed;
  else if (fallback) language = fallback;
  else {
    return {
      kind: "invalid",
      label,
      message:
        named.size === 0
          ? "language: no category or tag names English, Hindi or Marathi, the channel's <language> is none of them, and no --language was given"
          : `language: categories and tags name ${[...named].join(" and ")}; pass --language to choose`,
    };
  }
  const kept = terms.filter(
    (term) => TERM_DOMAINS.has(term.domain) && languageOfTerm(term.name) === null && term.name !== "",
  );
  const tags = kept.filter((t) => t.domain === "post_tag" || t.domain === "tag").map((t) => t.name);
  const categories = kept
    .filter((t) => (t.domain === "category" || t.domain === "") && t.nicename !== "uncategorized")
    .map((t) => t.name);

  const postTime = postTimeOf(item, context.timeZone);
  if (postTime === null) {
    return {
      kind: "invalid",
      label,
      message: "postTime: wp:post_date_gmt and wp:post_date are both empty or zero",
    };
  }

  let slug = decodeSlug(item.postName).normalize("NFC");
  if (slug === "") {
    // As WordPress would on publishing.
    const base = slugBase();
    slug = base;
    const taken = (candidate: string) =>
      context.slugsSeen.has(`${language}\n${candidate}`) || context.namedSlugs?.has(candidate) === true;
    for (let n = 2; taken(slug); n++) slug = `${base}-${n}`;
  }
  context.slugsSeen.add(`${language}\n${slug}`);

  const translationKey = translationKeyOf(item, terms, context);
  const source = sourceOf(item, context);
  // WordPress's teaser: the text before <!--more-->, when the export has no excerpt.
  const teaser = moreTeaser(item.content);
  const excerpt = excerptText(item.excerpt) || (teaser === null ? "" : excerptText(wordpressContent(teaser)));
  return {
    kind: "post",
    label,
    ...(locked ? { unpublished: "password-protected" } : {}),
    value: {
      idNum: item.postId,
      language,
      status,
      postTime,
      title,
      slug,
      featureImageUrl: item.thumbnailId ? (context.attachments.get(item.thumbnailId) ?? "") : "",
      audio: item.enclosure || (item.postId ? (context.attachments.get(audioKey(item.postId)) ?? "") : ""),
      content,
      excerpt,
      tags,
      categories,
      ...(translationKey === undefined ? {} : { translationKey }),
      ...(source === undefined ? {} : { source }),
    },
  };
}

/** Domains whose terms are a post's categories and tags (WXR 1.0: category without a domain, tag). */
const TERM_DOMAINS = new Set(["category", "post_tag", "tag", ""]);

/** --source-field: the post's person (and their line), work and reference; undefined when every part is empty. */
function sourceOf(item: WxrItem, context: WxrContext): Record<string, unknown> | undefined {
  const fields = context.sourceFields;
  if (!fields) return undefined;
  const source: Record<string, string> = {};
  for (const part of SOURCE_PARTS) {
    const field = fields[part];
    if (!field) continue;
    const raw =
      field.from === "author"
        ? context.authors?.get(item.creator) || item.creator
        : (item.meta.get(field.key) ?? "");
    const text = decodeEntities(raw).normalize("NFC").trim();
    if (text !== "") source[part] = text;
  }
  return sourceRecord(source);
}

/** The post meta keys --source-field reads. */
export function sourceMetaKeys(fields: SourceFields | undefined): string[] {
  return SOURCE_PARTS.flatMap((part) => {
    const field = fields?.[part];
    return field?.from === "meta" ? [field.key] : [];
  });
}
