import sanitizeHtml from "sanitize-html";
import { SaxesParser, type SaxesTagNS } from "saxes";
import { dateString } from "#app/content/dates.ts";
import type { Language } from "#app/content/languages.ts";
import { PostRecordSchema, parseLanguage } from "#app/content/schemas.ts";
import { slugify } from "#app/content/slugs.ts";
import { siteConfig } from "#app/site.config.ts";
import { UserError } from "#cli/errors.ts";
import { readText } from "#cli/import-json.ts";
import type { Source, SourceItem, SourceOptions } from "#cli/source.ts";

// WordPress eXtended RSS, versions 1.0 to 1.2: <rss><channel> with one <item>
// per post, page, attachment, menu item … The namespaces name the version.
const WP_NAMESPACE = /^http:\/\/wordpress\.org\/export\/(\d+\.\d+)\/$/;
const EXCERPT_NAMESPACE = /^http:\/\/wordpress\.org\/export\/\d+\.\d+\/excerpt\/$/;
const CONTENT_NAMESPACE = "http://purl.org/rss/1.0/modules/content/";
const SUPPORTED_VERSIONS = new Set(["1.0", "1.1", "1.2"]);

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
}

export interface WxrChannel {
  version: string | null;
  /** The channel's <language>, e.g. "hi-IN": the file's default language. */
  language: string;
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
  };
}

/** "wp:post_id", "content:encoded", "title" … whatever prefix the file binds the namespaces to. */
function keyOf(tag: SaxesTagNS): string {
  if (tag.uri === "") return tag.local;
  if (WP_NAMESPACE.test(tag.uri)) return `wp:${tag.local}`;
  if (EXCERPT_NAMESPACE.test(tag.uri)) return `excerpt:${tag.local}`;
  if (tag.uri === CONTENT_NAMESPACE) return `content:${tag.local}`;
  return `{${tag.uri}}${tag.local}`;
}

function xmlError(error: unknown): UserError {
  const message = (error as Error).message;
  const match = /^(?:.*?:)?(\d+):(\d+): (.*)$/s.exec(message);
  return new UserError(
    match ? `invalid XML at line ${match[1]}, column ${match[2]}: ${match[3]}` : `invalid XML: ${message}`,
  );
}

/**
 * Streams a WXR file: yields each <item> as it closes, and the channel once
 * its header (everything before the first item) is read. Only the current
 * item is held in memory. No DTD or external entity is ever expanded.
 */
export async function* parseWxr(
  chunks: AsyncIterable<string>,
): AsyncGenerator<{ channel: WxrChannel } | { item: WxrItem }> {
  const parser = new SaxesParser({ xmlns: true, position: true });
  const channel: WxrChannel = { version: null, language: "" };
  const queue: ({ channel: WxrChannel } | { item: WxrItem })[] = [];
  const stack: string[] = [];
  let text: string[] = [];
  let item: WxrItem | null = null;
  let items = 0;
  let channelSent = false;
  let isWxr = false;
  let category: { domain: string; nicename: string } | null = null;
  let meta = { key: "", value: "" };

  const sendChannel = () => {
    if (channelSent) return;
    channelSent = true;
    if (!isWxr)
      throw new UserError("not a WordPress export: no element in the http://wordpress.org/export/ namespace");
    queue.push({ channel });
  };

  parser.on("opentag", (tag) => {
    const key = keyOf(tag);
    const depth = stack.length;
    stack.push(key);
    text = [];
    const version = WP_NAMESPACE.exec(tag.uri)?.[1];
    if (version) {
      isWxr = true;
      if (!SUPPORTED_VERSIONS.has(version)) {
        throw new UserError(`unsupported WXR version ${version}: sukti reads WXR 1.0, 1.1 and 1.2`);
      }
    }
    if (depth === 0 && key !== "rss")
      throw new UserError(`not a WordPress export: the root element is <${tag.name}>, not <rss>`);
    if (depth === 1 && key !== "channel")
      throw new UserError(`not a WordPress export: <rss> holds <${tag.name}>, not <channel>`);
    if (depth === 2 && key === "item") {
      sendChannel();
      item = newItem(++items);
    }
    if (depth === 3 && item && key === "category") {
      category = {
        domain: tag.attributes.domain?.value ?? "",
        nicename: tag.attributes.nicename?.value ?? "",
      };
    }
    if (depth === 3 && key === "wp:postmeta") meta = { key: "", value: "" };
  });
  parser.on("text", (value) => text.push(value));
  parser.on("cdata", (value) => text.push(value));
  parser.on("closetag", () => {
    const key = stack.pop() ?? "";
    const depth = stack.length;
    const value = text.join("");
    text = [];
    if (depth === 2) {
      if (key === "item" && item) {
        queue.push({ item });
        item = null;
      } else if (key === "language") channel.language = value.trim();
      else if (key === "wp:wxr_version") {
        channel.version = value.trim();
        if (!SUPPORTED_VERSIONS.has(channel.version)) {
          throw new UserError(`unsupported WXR version ${channel.version}: sukti reads WXR 1.0, 1.1 and 1.2`);
        }
      }
    } else if (depth === 3 && item) {
      readItemField(item, key, value);
      if (key === "category" && category) {
        item.terms.push({ ...category, name: value });
        category = null;
      }
      if (key === "wp:postmeta" && meta.key === "_thumbnail_id") item.thumbnailId = meta.value.trim();
    } else if (depth === 4 && item && stack[3] === "wp:postmeta") {
      if (key === "wp:meta_key") meta.key = value.trim();
      else if (key === "wp:meta_value") meta.value = value;
    }
  });

  try {
    for await (const chunk of chunks) {
      parser.write(chunk);
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
    case "wp:attachment_url":
      item.attachmentUrl = value.trim();
      break;
    case "content:encoded":
      item.content = value;
      break;
    case "excerpt:encoded":
      item.excerpt = value;
      break;
  }
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
    const [y, mo, d] = date.split("-").map(Number);
    const [h, mi, s] = time.split(":").map(Number);
    return Date.UTC(y!, mo! - 1, d!, h!, mi!, s!) / 1000 - epoch;
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

const NAMED_ENTITIES: Record<string, string> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  apos: "'",
  nbsp: "\u00a0",
  hellip: "…",
  mdash: "—",
  ndash: "–",
  lsquo: "‘",
  rsquo: "’",
  ldquo: "“",
  rdquo: "”",
};

/** WordPress stores titles and term names HTML-escaped ("Faith &amp; Hope"). */
export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
    if (name[0] === "#") {
      const code =
        name[1] === "x" || name[1] === "X" ? Number.parseInt(name.slice(2), 16) : Number(name.slice(1));
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return NAMED_ENTITIES[name.toLowerCase()] ?? whole;
  });
}

/** The text of an HTML excerpt: tags dropped, entities decoded, spaces collapsed. */
export function htmlToText(html: string): string {
  return decodeEntities(sanitizeHtml(html, { allowedTags: [], allowedAttributes: {} }))
    .replace(/\s+/g, " ")
    .trim();
}

const BLOCK_TAGS = "p|div|ul|ol|li|blockquote|h[1-6]|figure|figcaption|table|thead|tbody|tr|td|th|pre|hr";
const BLOCK_OPEN = new RegExp(`(<(?:${BLOCK_TAGS})(?=[\\s/>]))`, "gi");
const BLOCK_CLOSE = new RegExp(`(</(?:${BLOCK_TAGS})>)`, "gi");
const BLOCK_START = new RegExp(`^</?(?:${BLOCK_TAGS})[\\s/>]`, "i");

/**
 * WordPress's classic editor stores text with blank lines between paragraphs
 * and renders it through wpautop(); this does the same for the common cases:
 * block elements stand alone, each other blank-line-separated run becomes a
 * <p>, and single newlines inside it <br>. Block-editor content (marked by
 * <!-- wp:… --> comments) already has its <p>: only the comments go.
 */
export function autop(html: string): string {
  const text = html.replace(/\r\n?/g, "\n").trim();
  if (text === "") return "";
  if (text.includes("<!-- wp:")) {
    return text
      .replace(/<!-- \/?wp:[\s\S]*?-->/g, "")
      .replace(/\n\s*\n/g, "\n")
      .trim();
  }
  return text
    .replace(BLOCK_OPEN, "\n\n$1")
    .replace(BLOCK_CLOSE, "$1\n\n")
    .split(/\n\s*\n/)
    .map((run) => run.trim())
    .filter((run) => run !== "")
    .map((run) => (BLOCK_START.test(run) ? run : `<p>${run.replace(/\n/g, "<br>\n")}</p>`))
    .join("\n");
}

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
  attachments: ReadonlyMap<string, string>;
  timeZone: string;
  /** language + slug of every post so far in this pass, to keep derived slugs unique. */
  slugsSeen: Set<string>;
}

export function itemLabel(item: WxrItem): string {
  return `item ${item.index} (wp:post_id ${item.postId || "?"})`;
}

/** One WXR item as the importer sees it: a post or page record to validate, or a skip with its reason. */
export function mapWxrItem(item: WxrItem, context: WxrContext): SourceItem {
  const label = itemLabel(item);
  const type = item.postType || "post";
  if (type === "attachment") return { kind: "skip", label, reason: "attachment (used for featured images)" };
  if (type !== "post" && type !== "page") return { kind: "skip", label, reason: `post_type ${type}` };
  const status = item.status || "publish";
  if (status === "auto-draft" || status === "inherit")
    return { kind: "skip", label, reason: `status ${status}` };
  if (item.postPassword !== "") return { kind: "skip", label, reason: "password-protected" };
  const title = decodeEntities(item.title).trim();
  if (title === "" && status !== "publish") return { kind: "skip", label, reason: `untitled ${status}` };
  const content = autop(item.content);

  if (type === "page") {
    if (status !== "publish") return { kind: "skip", label, reason: `page with status ${status}` };
    return {
      kind: "page",
      label,
      value: { slug: decodeSlug(item.postName) || slugify(title), title, content },
    };
  }

  const terms = item.terms.map((term) => ({ ...term, name: decodeEntities(term.name).trim() }));
  const named = new Set(terms.map((term) => languageOfTerm(term.name)).filter((l) => l !== null));
  const fallback = context.language ?? context.fileLanguage;
  let language: Language;
  if (named.size === 1) language = [...named][0]!;
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
  const kept = terms.filter((term) => languageOfTerm(term.name) === null && term.name !== "");
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
    // Drafts have no wp:post_name: derive one from the title, as WordPress would on publishing.
    const base = slugify(title);
    slug = base;
    for (let n = 2; context.slugsSeen.has(`${language}\n${slug}`); n++) slug = `${base}-${n}`;
  }
  context.slugsSeen.add(`${language}\n${slug}`);

  return {
    kind: "post",
    label,
    value: {
      idNum: item.postId,
      language,
      status,
      postTime,
      title,
      slug,
      featureImageUrl: item.thumbnailId ? (context.attachments.get(item.thumbnailId) ?? "") : "",
      content,
      excerpt: htmlToText(item.excerpt),
      tags,
      categories,
    },
  };
}

/**
 * A WXR file. The first pass collects attachments (id → URL), so the second
 * resolves every featured image, wherever its attachment sits in the file.
 */
export function wxrSource(
  file: string,
  options: SourceOptions,
  timeZone: string = siteConfig.timeZone,
  knownAttachments?: Map<string, string>,
): Source {
  const attachments = knownAttachments ?? new Map<string, string>();
  const thumbnails: { label: string; id: string }[] = [];
  // Given the attachments of an earlier read, every read resolves featured images.
  let pass = knownAttachments ? 1 : 0;
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
      };
      for await (const event of parseWxr(readText(file, counter))) {
        if ("channel" in event) {
          context.fileLanguage = languageOfLocale(event.channel.language);
          continue;
        }
        const { item } = event;
        if (pass === 1) {
          if (item.postType === "attachment" && item.postId) attachments.set(item.postId, item.attachmentUrl);
          if (item.thumbnailId && item.postType !== "attachment") {
            thumbnails.push({ label: itemLabel(item), id: item.thumbnailId });
          }
        }
        yield mapWxrItem(item, context);
      }
    },
    attachments,
    afterFirstPass() {
      const errors: string[] = [];
      const warnings: string[] = [];
      const imageUrl = PostRecordSchema.shape.featureImageUrl;
      for (const { label, id } of thumbnails) {
        const url = attachments.get(id);
        if (url === undefined) {
          warnings.push(
            `${label}: featured image attachment ${id} is not in the file; the post gets no image`,
          );
          continue;
        }
        const result = imageUrl.safeParse(url);
        if (!result.success) {
          errors.push(
            `${label}: featureImageUrl: ${result.error.issues[0]?.message ?? "invalid"} (attachment ${id})`,
          );
        }
      }
      return { errors, warnings };
    },
  };
}
