import { closeSync, openSync, readSync } from "node:fs";
import sanitizeHtml from "sanitize-html";
import { SaxesParser, type SaxesTagNS } from "saxes";
import { audioTypeOf } from "#app/content/audio.ts";
import { dateString } from "#app/content/dates.ts";
import { decodeEntities, htmlToPlainText } from "#app/content/html-text.ts";
import type { Language } from "#app/content/languages.ts";
import {
  audioUrlSchema,
  cutText,
  imageUrlSchema,
  MAX_RECORD_BYTES,
  parseLanguage,
  quote,
} from "#app/content/schemas.ts";
import { slugify } from "#app/content/slugs.ts";
import { titleFromContent } from "#app/content/untitled.ts";
import { moreTeaser, wordpressContent } from "#app/content/wordpress-content.ts";
import { currentSite } from "#app/site.ts";
import { UserError } from "#cli/errors.ts";
import { formatBytes, nextChunk, readText, type TextEncoding } from "#cli/import-json.ts";
import {
  SOURCE_PARTS,
  type Source,
  type SourceFields,
  type SourceItem,
  type SourceOptions,
  sourceRecord,
} from "#cli/source.ts";

// WordPress eXtended RSS, versions 1.x: <rss><channel> with one <item> per
// post, page, attachment, menu item … The namespaces name the version, with
// http:// (self-hosted WordPress) or https:// (WordPress.com).
const WP_NAMESPACE = /^https?:\/\/wordpress\.org\/export\/(\d+\.\d+)\/$/;
const EXCERPT_NAMESPACE = /^https?:\/\/wordpress\.org\/export\/\d+\.\d+\/excerpt\/$/;
const CONTENT_NAMESPACE = "http://purl.org/rss/1.0/modules/content/";
const DC_NAMESPACE = "http://purl.org/dc/elements/1.1/";

/** WordPress's importer reads any 1.x file (1.0, 1.1, 1.2, 1.3 …); a 2.x format would be another format. */
function checkVersion(version: string): void {
  if (!/^1\.\d+$/.test(version)) {
    throw new UserError(`unsupported WXR version ${version}: sukti reads WXR 1.x (1.0, 1.1, 1.2 …)`);
  }
}

// WPML Export and Import: a post's language and translation group as post meta.
const WPML_LANGUAGE = "_wpml_import_language_code";
const WPML_GROUP = "_wpml_import_translation_group";

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

function newItem(index: number): WxrItem {
  return {
    index,
    title: "",
    postId: "",
    postDate: "",
    postDateGmt: "",
    postName: "",
    status: "",
    postType: "",
    postPassword: "",
    attachmentUrl: "",
    content: "",
    excerpt: "",
    terms: [],
    thumbnailId: "",
    postParent: "",
    mimeType: "",
    enclosure: "",
    creator: "",
    meta: new Map(),
  };
}

/** "wp:post_id", "content:encoded", "title" … whatever prefix the file binds the namespaces to. */
function keyOf(tag: SaxesTagNS): string {
  if (tag.uri === "") return tag.local;
  if (WP_NAMESPACE.test(tag.uri)) return `wp:${tag.local}`;
  if (EXCERPT_NAMESPACE.test(tag.uri)) return `excerpt:${tag.local}`;
  if (tag.uri === CONTENT_NAMESPACE) return `content:${tag.local}`;
  if (tag.uri === DC_NAMESPACE) return `dc:${tag.local}`;
  return `{${tag.uri}}${tag.local}`;
}

function xmlError(error: unknown): UserError {
  // saxes quotes what it could not read (an entity's name): cut, on one line.
  const message = cutText((error as Error).message.replace(/\s+/g, " "), 200);
  const match = /^(?:.*?:)?(\d+):(\d+): (.*)$/s.exec(message);
  return new UserError(
    match ? `invalid XML at line ${match[1]}, column ${match[2]}: ${match[3]}` : `invalid XML: ${message}`,
  );
}

/** Text given to the XML parser at a time: between two, the size checks run. */
const PARSER_PIECE = 64 * 1024;

/**
 * The encoding a WXR file's XML declaration names (`<?xml version="1.0"
 * encoding="ISO-8859-1"?>`): UTF-8 when it names none. ISO-8859-1 and its
 * aliases are read as windows-1252, as browsers read them (the same letters;
 * 0x80–0x9F are “ ” € … rather than control characters). Any other
 * encoding, and UTF-16, are refused in one line.
 */
export function declaredEncoding(head: Buffer): TextEncoding {
  if ((head[0] === 0xff && head[1] === 0xfe) || (head[0] === 0xfe && head[1] === 0xff)) {
    throw new UserError("the file is UTF-16, which sukti does not read: export it as UTF-8");
  }
  // A UTF-8 byte order mark says UTF-8, whatever the declaration claims (XML 1.0, appendix F).
  if (head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf) return "utf-8";
  const text = head.toString("latin1");
  const declaration = /^\s*<\?xml\s[^>]*?\bencoding\s*=\s*(["'])([^"'>]*)\1/.exec(text);
  if (!declaration) return "utf-8";
  const name = (declaration[2] ?? "").trim().toLowerCase();
  if (["utf-8", "utf8", "us-ascii", "ascii"].includes(name)) return "utf-8";
  if (
    ["iso-8859-1", "iso8859-1", "iso_8859-1", "latin1", "latin-1", "l1", "windows-1252", "cp1252"].includes(
      name,
    )
  ) {
    return "windows-1252";
  }
  throw new UserError(
    `the file declares encoding ${quote(declaration[2] ?? "")}, which sukti does not read: export it as UTF-8 (ISO-8859-1 and windows-1252 are read too)`,
  );
}

/** The encoding of the WXR file at `file`, from its first bytes. */
export function fileEncoding(file: string): TextEncoding {
  const fd = openSync(file, "r");
  try {
    const head = Buffer.alloc(1024);
    return declaredEncoding(head.subarray(0, readSync(fd, head, 0, head.length, 0)));
  } finally {
    closeSync(fd);
  }
}

/**
 * Streams a WXR file: yields each <item> as it closes, and the channel once
 * its header (everything before the first item) is read. Only the current
 * item is held in memory. No DTD or external entity is ever expanded.
 */
export async function* parseWxr(
  chunks: AsyncIterable<string>,
  options: { metaKeys?: Iterable<string> } = {},
): AsyncGenerator<{ channel: WxrChannel } | { item: WxrItem }> {
  const parser = new SaxesParser({ xmlns: true, position: true });
  const channel: WxrChannel = {
    version: null,
    language: "",
    authors: new Map(),
    translationGroups: new Map(),
    polylang: false,
    warnings: [],
  };
  const metaKeys = new Set([WPML_LANGUAGE, WPML_GROUP, ...(options.metaKeys ?? [])]);
  const queue: ({ channel: WxrChannel } | { item: WxrItem })[] = [];
  const stack: string[] = [];
  let text: string[] = [];
  let item: WxrItem | null = null;
  let items = 0;
  /** Line of the open item's tag; characters of text (and attributes) it holds so far. */
  let itemLine = 0;
  let itemChars = 0;
  /** Characters in the element's text so far; where the parser was at its last event. */
  let textChars = 0;
  let lastEvent = 0;
  const where = () => (item ? `item ${item.index} (line ${itemLine})` : `the element at line ${parser.line}`);
  const tooLarge = (): never => {
    throw new UserError(
      `${where()}: larger than ${formatBytes(MAX_RECORD_BYTES)}, the most a record may be (nothing after it was read)`,
    );
  };
  /** Text of the item (or of an element outside items) gathered: never past the limit of a record. */
  const gather = (value: string) => {
    lastEvent = parser.position;
    textChars += value.length;
    if (item) itemChars += value.length;
    if (textChars > MAX_RECORD_BYTES || itemChars > MAX_RECORD_BYTES) tooLarge();
    text.push(value);
  };
  const seen = () => {
    lastEvent = parser.position;
  };
  let channelSent = false;
  let isWxr = false;
  let category: { domain: string; nicename: string } | null = null;
  let meta = { key: "", value: "" };
  let author = { login: "", name: "" };
  let term = { taxonomy: "", slug: "", description: "" };

  const sendChannel = () => {
    if (channelSent) return;
    channelSent = true;
    if (!isWxr)
      throw new UserError(
        "not a WordPress export: no element in the http(s)://wordpress.org/export/ namespace",
      );
    queue.push({ channel });
  };

  parser.on("opentag", (tag) => {
    seen();
    const key = keyOf(tag);
    const depth = stack.length;
    stack.push(key);
    text = [];
    textChars = 0;
    const version = WP_NAMESPACE.exec(tag.uri)?.[1];
    if (version) {
      isWxr = true;
      checkVersion(version);
    }
    if (depth === 0 && key !== "rss")
      throw new UserError(`not a WordPress export: the root element is <${tag.name}>, not <rss>`);
    if (depth === 1 && key !== "channel")
      throw new UserError(`not a WordPress export: <rss> holds <${tag.name}>, not <channel>`);
    if (depth === 2 && key === "item") {
      sendChannel();
      item = newItem(++items);
      itemLine = parser.line;
      itemChars = 0;
    }
    if (depth === 3 && item && key === "category") {
      category = {
        domain: tag.attributes.domain?.value ?? "",
        nicename: tag.attributes.nicename?.value ?? "",
      };
      itemChars += category.domain.length + category.nicename.length;
      if (itemChars > MAX_RECORD_BYTES) tooLarge();
    }
    if (depth === 3 && key === "wp:postmeta") meta = { key: "", value: "" };
    if (depth === 3 && item && key === "enclosure" && item.enclosure === "") {
      item.enclosure = audioEnclosure(tag.attributes.url?.value ?? "", tag.attributes.type?.value ?? "");
    }
    if (depth === 2 && key === "wp:author") author = { login: "", name: "" };
    if (depth === 2 && key === "wp:term") term = { taxonomy: "", slug: "", description: "" };
  });
  parser.on("text", gather);
  parser.on("cdata", gather);
  parser.on("comment", seen);
  parser.on("processinginstruction", seen);
  parser.on("doctype", seen);
  parser.on("closetag", () => {
    seen();
    const key = stack.pop() ?? "";
    const depth = stack.length;
    const value = text.join("");
    text = [];
    textChars = 0;
    if (depth === 2) {
      if (key === "item" && item) {
        queue.push({ item });
        item = null;
      } else if (key === "language") channel.language = value.trim();
      else if (key === "wp:wxr_version") {
        channel.version = value.trim();
        checkVersion(channel.version);
      } else if (key === "wp:author" && author.login !== "") {
        channel.authors.set(author.login, author.name || author.login);
      } else if (key === "wp:term") readTerm(term, channel);
    } else if (depth === 3 && item) {
      readItemField(item, key, value);
      if (key === "category" && category) {
        item.terms.push({ ...category, name: value });
        category = null;
      }
      if (key === "wp:postmeta") {
        if (meta.key === "_thumbnail_id") item.thumbnailId = meta.value.trim();
        else if (meta.key === "enclosure" && item.enclosure === "") {
          // WordPress keeps a post's enclosure as "url\nlength\ntype".
          const [url = "", , type = ""] = meta.value.split(/\r?\n/);
          item.enclosure = audioEnclosure(url, type);
        } else if (metaKeys.has(meta.key) && !item.meta.has(meta.key)) item.meta.set(meta.key, meta.value);
      }
    } else if (depth === 3 && stack[2] === "wp:author") {
      if (key === "wp:author_login") author.login = value.trim();
      else if (key === "wp:author_display_name") author.name = value.trim();
    } else if (depth === 3 && stack[2] === "wp:term") {
      if (key === "wp:term_taxonomy") term.taxonomy = value.trim();
      else if (key === "wp:term_slug") term.slug = value.trim();
      else if (key === "wp:term_description") term.description = value.trim();
    } else if (depth === 4 && item && stack[3] === "wp:postmeta") {
      if (key === "wp:meta_key") meta.key = value.trim();
      else if (key === "wp:meta_value") meta.value = value;
    }
  });

  try {
    const reading = chunks[Symbol.asyncIterator]();
    for (;;) {
      const next = await nextChunk(reading, () => (item ? where() : null));
      if (next.done) break;
      const chunk = next.value;
      // In pieces, so that text the parser holds between two events (a huge
      // text node, attribute or comment) never grows far past a record's limit.
      for (let at = 0; at < chunk.length; at += PARSER_PIECE) {
        parser.write(chunk.slice(at, at + PARSER_PIECE));
        if (parser.position - lastEvent > MAX_RECORD_BYTES) tooLarge();
      }
      yield* queue;
      queue.length = 0;
    }
    parser.close();
  } catch (error) {
    throw error instanceof UserError ? error : xmlError(error);
  }
  sendChannel();
  yield* queue;
}

/** The address when it is audio (by its declared type, else its extension), "" when not. */
function audioEnclosure(url: string, type: string): string {
  const address = url.trim();
  if (address === "") return "";
  const declared = type.trim().toLowerCase();
  if (declared !== "") return declared.startsWith("audio/") ? address : "";
  return audioTypeOf(address) ? address : "";
}

/** An attachment's address when it is audio (wp:post_mime_type, else the address's extension). */
function audioAttachment(item: WxrItem): string {
  return audioEnclosure(item.attachmentUrl, item.mimeType);
}

/**
 * Key of a post's first audio attachment in WxrContext.attachments (which
 * otherwise maps attachment ids, all digits, to their addresses).
 */
const audioKey = (postId: string) => `audio:${postId}`;

function readItemField(item: WxrItem, key: string, value: string): void {
  switch (key) {
    case "title":
      item.title = value;
      break;
    case "wp:post_id":
      item.postId = value.trim();
      break;
    case "wp:post_date":
      item.postDate = value.trim();
      break;
    case "wp:post_date_gmt":
      item.postDateGmt = value.trim();
      break;
    case "wp:post_name":
      item.postName = value.trim();
      break;
    case "wp:status":
      item.status = value.trim();
      break;
    case "wp:post_type":
      item.postType = value.trim();
      break;
    case "wp:post_password":
      item.postPassword = value;
      break;
    case "wp:post_parent":
      item.postParent = value.trim();
      break;
    case "wp:post_mime_type":
      item.mimeType = value.trim().toLowerCase();
      break;
    case "wp:attachment_url":
      item.attachmentUrl = value.trim();
      break;
    case "content:encoded":
      item.content = value;
      break;
    case "excerpt:encoded":
      item.excerpt = value;
      break;
    case "dc:creator":
      item.creator = value.trim();
      break;
  }
}

const POLYLANG_TAXONOMIES = new Set(["term_language", "post_translations", "term_translations"]);

/**
 * A <wp:term> of the channel. Polylang keeps each translation group as a term
 * of `post_translations` (slug `pll_…`) whose description is a PHP-serialized
 * map language slug → post id, e.g. a:2:{s:2:"en";i:12;s:2:"hi";i:15;}, and
 * sometimes more data (a "sync" array), which is not a post.
 */
function readTerm(term: { taxonomy: string; slug: string; description: string }, channel: WxrChannel) {
  if (POLYLANG_TAXONOMIES.has(term.taxonomy)) channel.polylang = true;
  if (term.taxonomy !== "post_translations" || term.slug === "" || term.description === "") return;
  const where = `<wp:term> ${cutText(term.slug, 80)} (post_translations)`;
  const ignored = 'its posts keep the group only if their own <category domain="post_translations"> names it';
  let map: PhpValue;
  try {
    map = parsePhpSerialized(term.description);
  } catch (error) {
    channel.warnings.push(
      `${where}: wp:term_description is not a readable serialized array (${cutText((error as Error).message, 120)}); ${ignored}`,
    );
    return;
  }
  if (!(map instanceof Map)) {
    channel.warnings.push(`${where}: wp:term_description is not a serialized array; ${ignored}`);
    return;
  }
  for (const [language, id] of map) {
    if (typeof language !== "string") continue;
    const postId =
      typeof id === "number" && id > 0 ? String(id) : typeof id === "string" && /^\d+$/.test(id) ? id : null;
    if (postId === null) continue; // extra data, e.g. "sync" => array
    const other = channel.translationGroups.get(postId);
    if (other !== undefined && other !== term.slug) {
      channel.warnings.push(
        `${where}: post ${postId} is also in translation group ${cutText(other, 80)}, which it keeps`,
      );
      continue;
    }
    channel.translationGroups.set(postId, term.slug);
  }
}

/** A value of PHP's serialize() format: arrays become Maps (keys in order). */
export type PhpValue = null | boolean | number | string | Map<string | number, PhpValue>;

const MAX_PHP_DEPTH = 32;

/**
 * Reads the part of PHP's serialize() format WordPress plugins store in term
 * descriptions: arrays a:N:{…}, strings s:LEN:"…"; (LEN counts UTF-8 bytes),
 * integers i:N;, floats d:N;, booleans b:0; and null N;. Objects, references
 * and anything else are refused: nothing is ever evaluated or instantiated.
 * Throws an Error naming the byte where the text stops making sense.
 */
export function parsePhpSerialized(text: string): PhpValue {
  const bytes = Buffer.from(text, "utf8");
  const decoder = new TextDecoder("utf-8", { fatal: true });
  let at = 0;
  const fail = (problem: string, where = at): never => {
    throw new Error(`${problem} at byte ${where}`);
  };
  const expect = (char: string) => {
    if (bytes[at] !== char.charCodeAt(0)) fail(`expected '${char}'`);
    at++;
  };
  const until = (end: string): string => {
    const stop = bytes.indexOf(end.charCodeAt(0), at);
    if (stop < 0) fail(`expected '${end}'`);
    const token = bytes.toString("latin1", at, stop);
    at = stop + 1;
    return token;
  };
  const count = (end: string): number => {
    const start = at;
    const token = until(end);
    if (!/^\d{1,9}$/.test(token)) fail(`"${token}" is not a length`, start);
    return Number(token);
  };
  const value = (depth: number): PhpValue => {
    const start = at;
    const type = String.fromCharCode(bytes[at] ?? 0);
    if (!"Nbidsa".includes(type)) {
      return fail(start >= bytes.length ? "unexpected end" : `unsupported type '${type}'`);
    }
    at++;
    if (type === "N") {
      expect(";");
      return null;
    }
    expect(":");
    switch (type) {
      case "b": {
        const token = until(";");
        if (token !== "0" && token !== "1") fail(`"${token}" is not a boolean`, start);
        return token === "1";
      }
      case "i": {
        const token = until(";");
        const n = Number(token);
        if (!/^[+-]?\d+$/.test(token) || !Number.isSafeInteger(n))
          fail(`"${token}" is not an integer`, start);
        return n;
      }
      case "d": {
        const token = until(";");
        if (token === "INF") return Number.POSITIVE_INFINITY;
        if (token === "-INF") return Number.NEGATIVE_INFINITY;
        if (token === "NAN") return Number.NaN;
        if (!/^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/.test(token))
          fail(`"${token}" is not a number`, start);
        return Number(token);
      }
      case "s": {
        const length = count(":");
        expect('"');
        if (at + length > bytes.length) fail(`a string of ${length} bytes runs past the end`, start);
        let string = "";
        try {
          string = decoder.decode(bytes.subarray(at, at + length));
        } catch {
          fail(`a string of ${length} bytes cuts a UTF-8 character`, start);
        }
        at += length;
        expect('"');
        expect(";");
        return string;
      }
      case "a": {
        if (depth >= MAX_PHP_DEPTH) fail("arrays nested too deep", start);
        const entries = count(":");
        expect("{");
        const map = new Map<string | number, PhpValue>();
        for (let i = 0; i < entries; i++) {
          const keyType = bytes[at];
          if (keyType === undefined) fail("unexpected end");
          if (keyType !== 0x69 /* i */ && keyType !== 0x73 /* s */) fail("expected an integer or string key");
          map.set(value(depth + 1) as string | number, value(depth + 1));
        }
        expect("}");
        return map;
      }
      default:
        return fail(`unsupported type '${type}'`, start);
    }
  };
  const result = value(0);
  if (at !== bytes.length) fail("unexpected text after the value");
  return result;
}

// Category or tag names that say which language a post is in.
const LANGUAGE_TERM_NAMES: Record<string, Language> = {
  english: "english",
  hindi: "hindi",
  हिंदी: "hindi",
  हिन्दी: "hindi",
  marathi: "marathi",
  मराठी: "marathi",
};

export function languageOfTerm(name: string): Language | null {
  return LANGUAGE_TERM_NAMES[name.normalize("NFC").trim().toLowerCase()] ?? null;
}

/** "hi-IN" → hindi, "mr" → marathi, "en-US" → english; null for other languages. */
export function languageOfLocale(locale: string): Language | null {
  return parseLanguage(locale.trim().split(/[-_]/)[0] ?? "");
}

const ZERO_DATE = /^0000-00-00/;

function parseWpDate(value: string): [number, number, number, number, number, number] | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2}):(\d{2})$/.exec(value);
  if (!match || ZERO_DATE.test(value)) return null;
  const [, ...parts] = match;
  return parts.map(Number) as [number, number, number, number, number, number];
}

/** Epoch seconds of a wall-clock time in an IANA time zone (DST-aware: the offset is re-read once). */
export function zonedTimeToEpoch(
  [year, month, day, hour, minute, second]: [number, number, number, number, number, number],
  timeZone: string,
): number {
  const wall = Date.UTC(year, month - 1, day, hour, minute, second) / 1000;
  const offsetAt = (epoch: number) => {
    const [date = "", time = ""] = dateString(epoch, timeZone).split(" ");
    // A missing part is NaN, as Date.UTC reads undefined.
    const [y = Number.NaN, mo = Number.NaN, d = Number.NaN] = date.split("-").map(Number);
    const [h = Number.NaN, mi = Number.NaN, s = Number.NaN] = time.split(":").map(Number);
    return Date.UTC(y, mo - 1, d, h, mi, s) / 1000 - epoch;
  };
  const first = wall - offsetAt(wall);
  return wall - offsetAt(first);
}

/** wp:post_date_gmt, or for drafts (zeros there) wp:post_date in the site's time zone. */
export function postTimeOf(item: Pick<WxrItem, "postDate" | "postDateGmt">, timeZone: string): number | null {
  const gmt = parseWpDate(item.postDateGmt);
  if (gmt) return zonedTimeToEpoch(gmt, "UTC");
  const local = parseWpDate(item.postDate);
  return local ? zonedTimeToEpoch(local, timeZone) : null;
}

/** The text of an HTML excerpt: tags dropped, entities decoded, spaces collapsed. */
export function excerptText(html: string): string {
  return htmlToPlainText(sanitizeHtml(html, { allowedTags: [], allowedAttributes: {} })).trim();
}

export { autop } from "#app/content/wordpress-content.ts";

/** wp:post_name is percent-encoded UTF-8 ("%e0%a4%b8…" for Devanagari). */
export function decodeSlug(postName: string): string {
  try {
    return decodeURIComponent(postName);
  } catch {
    return postName; // malformed: the schema refuses its "%" with a clear message
  }
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

type Term = WxrItem["terms"][number];

/**
 * The language a multilingual plugin gives the post: Polylang's
 * <category domain="language" nicename="hi">हिन्दी</category>, else WPML's
 * _wpml_import_language_code meta. `language: null` is a language the site
 * does not have (the post is skipped); null, no plugin language at all. A
 * `language` term the site cannot read counts only in a Polylang export: on
 * another site it may be a taxonomy of its own, and the other rules apply.
 */
function pluginLanguage(
  item: WxrItem,
  terms: Term[],
  context: WxrContext,
): { language: Language | null; code: string } | null {
  const polylang = terms.find((term) => term.domain === "language" && (term.nicename || term.name));
  if (polylang) {
    const language =
      languageOfLocale(polylang.nicename) ?? languageOfTerm(polylang.name) ?? languageOfLocale(polylang.name);
    const sure = context.polylang || terms.some((term) => term.domain === "post_translations");
    if (language || sure) return { language, code: polylang.nicename || polylang.name };
  }
  const wpml = item.meta.get(WPML_LANGUAGE)?.trim();
  if (wpml) return { language: languageOfLocale(wpml), code: wpml };
  return null;
}

/**
 * Polylang: the group its <category domain="post_translations"> names, else
 * the group whose map (in the channel) lists its post id; WPML: "wpml-" and
 * its _wpml_import_translation_group meta.
 */
function translationKeyOf(item: WxrItem, terms: Term[], context: WxrContext): string | undefined {
  const group = terms.find((term) => term.domain === "post_translations");
  const polylang = (group?.nicename || group?.name)?.trim() || context.translationGroups?.get(item.postId);
  if (polylang) return polylang;
  const wpml = item.meta.get(WPML_GROUP)?.trim();
  return wpml ? `wpml-${wpml}` : undefined;
}

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
function sourceMetaKeys(fields: SourceFields | undefined): string[] {
  return SOURCE_PARTS.flatMap((part) => {
    const field = fields?.[part];
    return field?.from === "meta" ? [field.key] : [];
  });
}

/** wp:post_name or wp:post_type, as WordPress writes them (CDATA or plain text). */
const NAME_OR_TYPE = /<wp:post_(name|type)>\s*(?:<!\[CDATA\[([\s\S]*?)\]\]>|([^<]*?))\s*<\/wp:post_\1>/g;
const TAG_START = "<wp:post_";

/**
 * The wp:post_name of every post (wp:post_type post) of the file,
 * percent-decoded, NFC: the slugs a draft's derived slug must not take (a
 * draft titled as a published post further on would otherwise clash with it
 * and reject the file; decision 054). WordPress writes an item's post_name
 * before its post_type. A quick scan of the text, not an XML parse (a file
 * binding WordPress's namespace to another prefix is not scanned); a name it
 * misses leaves today's check, which refuses two posts with one slug. Errors
 * are left to the real read.
 */
export async function explicitSlugs(file: string, encoding: TextEncoding): Promise<Set<string>> {
  const slugs = new Set<string>();
  let tail = "";
  let name = "";
  try {
    for await (const chunk of readText(file, { bytes: 0 }, encoding)) {
      const text = tail + chunk;
      let end = 0;
      for (const match of text.matchAll(NAME_OR_TYPE)) {
        const value = (match[2] ?? match[3] ?? "").trim();
        if (match[1] === "name") name = decodeSlug(value).normalize("NFC");
        else {
          if (value === "post" && name !== "") slugs.add(name);
          name = "";
        }
        end = match.index + match[0].length;
      }
      const open = text.lastIndexOf(TAG_START);
      tail = open >= end ? text.slice(open) : text.slice(-TAG_START.length);
      if (tail.length > 4096) tail = ""; // no slug is that long: not a post name
    }
  } catch {
    // Bad bytes or a vanished file: the XML read that follows says so, naming the record.
  }
  return slugs;
}

/**
 * A WXR file. The first pass collects attachments (id → URL), so the second
 * resolves every featured image, wherever its attachment sits in the file.
 */
export function wxrSource(
  file: string,
  options: SourceOptions,
  timeZone: string = currentSite().timeZone,
  knownAttachments?: Map<string, string>,
): Source {
  const attachments = knownAttachments ?? new Map<string, string>();
  const thumbnails: { label: string; id: string }[] = [];
  const audioErrors: string[] = [];
  const metaKeys = sourceMetaKeys(options.sourceFields);
  let channelWarnings: string[] = [];
  // Given the attachments of an earlier read, every read resolves featured images.
  let pass = knownAttachments ? 1 : 0;
  let namedSlugs: Set<string> | undefined;
  return {
    format: "wxr",
    async *items(counter) {
      pass++;
      const context: WxrContext = {
        language: options.language,
        fileLanguage: null,
        attachments,
        timeZone,
        slugsSeen: new Set(),
        sourceFields: options.sourceFields,
      };
      const encoding = fileEncoding(file);
      namedSlugs ??= await explicitSlugs(file, encoding);
      context.namedSlugs = namedSlugs;
      for await (const event of parseWxr(readText(file, counter, encoding), { metaKeys })) {
        if ("channel" in event) {
          const { channel } = event;
          context.fileLanguage = languageOfLocale(channel.language);
          context.authors = channel.authors;
          context.translationGroups = channel.translationGroups;
          context.polylang = channel.polylang;
          if (pass === 1) channelWarnings = channel.warnings;
          continue;
        }
        const { item } = event;
        if (pass === 1) {
          if (item.postType === "attachment" && item.postId) attachments.set(item.postId, item.attachmentUrl);
          const audio = item.postType === "attachment" ? audioAttachment(item) : "";
          if (audio !== "" && item.postParent !== "" && item.postParent !== "0") {
            const checked = audioUrlSchema.safeParse(audio);
            if (!checked.success) {
              audioErrors.push(
                `${itemLabel(item)}: audio: ${checked.error.issues[0]?.message ?? "invalid"} (attachment of post ${cutText(item.postParent, 40)})`,
              );
            } else if (!attachments.has(audioKey(item.postParent))) {
              attachments.set(audioKey(item.postParent), audio);
            }
          }
          if (item.thumbnailId && item.postType !== "attachment") {
            thumbnails.push({ label: itemLabel(item), id: item.thumbnailId });
          }
        }
        yield mapWxrItem(item, context);
      }
    },
    attachments,
    afterFirstPass() {
      const errors: string[] = [...audioErrors];
      const warnings: string[] = [...channelWarnings];
      const imageUrl = imageUrlSchema;
      for (const { label, id } of thumbnails) {
        const url = attachments.get(id);
        if (url === undefined) {
          warnings.push(
            `${label}: featured image attachment ${cutText(id, 40)} is not in the file; the post gets no image`,
          );
          continue;
        }
        const result = imageUrl.safeParse(url);
        if (!result.success) {
          errors.push(
            `${label}: featureImageUrl: ${result.error.issues[0]?.message ?? "invalid"} (attachment ${cutText(id, 40)})`,
          );
        }
      }
      return { errors, warnings };
    },
  };
}
