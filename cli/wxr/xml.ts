import { closeSync, openSync, readSync } from "node:fs";
import { SaxesParser, type SaxesTagNS } from "saxes";
import { cutText, MAX_RECORD_BYTES, quote } from "#app/content/schemas.ts";
import { UserError } from "#cli/errors.ts";
import { formatBytes, nextChunk, type TextEncoding } from "#cli/import-json.ts";
import { audioEnclosure } from "#cli/wxr/audio.ts";
import { readTerm, WPML_GROUP, WPML_LANGUAGE } from "#cli/wxr/languages.ts";
import type { WxrChannel, WxrItem } from "#cli/wxr/types.ts";

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

/** An item with every field empty, as the reader starts each <item>. */
export function newItem(index: number): WxrItem {
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
