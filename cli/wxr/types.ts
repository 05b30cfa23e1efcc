import type { Language } from "#app/content/languages.ts";
import type { SourceFields } from "#cli/source.ts";

// What a WXR file holds, as the reader (xml.ts) gives it and the mapping (items.ts) reads it.

export interface WxrItem {
  /** Position among the file's items, from 1. */
  index: number;
  title: string;
  postId: string;
  postDate: string;
  postDateGmt: string;
  postName: string;
  status: string;
  postType: string;
  postPassword: string;
  attachmentUrl: string;
  content: string;
  excerpt: string;
  terms: { domain: string; nicename: string; name: string }[];
  thumbnailId: string;
  /** wp:post_parent: an attachment's post. */
  postParent: string;
  /** wp:post_mime_type, when the export has it (an attachment's type). */
  mimeType: string;
  /** The post's audio enclosure: an <enclosure type="audio/…"> or its `enclosure` post meta ("url\nlength\ntype"). */
  enclosure: string;
  /** dc:creator: the author's login. */
  creator: string;
  /** The post meta the reader was asked for (WPML's, --source-field's), first value of each key. */
  meta: Map<string, string>;
}

export interface WxrChannel {
  version: string | null;
  /** The channel's <language>, e.g. "hi-IN": the file's default language. */
  language: string;
  /** wp:author_login → wp:author_display_name (the login when that is empty). */
  authors: Map<string, string>;
  /** Post id → the Polylang translation group (a post_translations term's slug) whose map lists it. */
  translationGroups: Map<string, string>;
  /** The file has Polylang's own terms (term_language, post_translations, term_translations). */
  polylang: boolean;
  /** Problems in the channel that do not reject the file (a Polylang map that cannot be read). */
  warnings: string[];
}

export interface WxrContext {
  language?: Language;
  fileLanguage: Language | null;
  /** Attachment id → address; also audioKey(post id) → the post's first audio attachment. */
  attachments: ReadonlyMap<string, string>;
  timeZone: string;
  /** language + slug of every post so far in this pass, to keep derived slugs unique. */
  slugsSeen: Set<string>;
  /** Every post's wp:post_name in the file (explicitSlugs): a derived slug takes none of them, in any language. */
  namedSlugs?: ReadonlySet<string>;
  /** The channel's authors: login → display name. */
  authors?: ReadonlyMap<string, string>;
  /** Post id → Polylang translation group, from the channel's post_translations terms. */
  translationGroups?: ReadonlyMap<string, string>;
  /** The file is a Polylang export (WxrChannel.polylang). */
  polylang?: boolean;
  /** --source-field: where each part of a post's source is read from. */
  sourceFields?: SourceFields;
}

export type Term = WxrItem["terms"][number];
