// A post page (/english/{slug}, /hindi/…, /marathi/…) made without React
// Router or React (decision 097). What a post page shows of its post is five
// pieces: its image's preload and its meta in the <head>, its JSON-LD, its
// article, and its loader data in React Router's inline script; the rest
// (the frame: head, header, footer, scripts) is the same for every post of a
// language. So the first post page of a language is rendered in full, and
// cut around its own five pieces, written again here as strings; the pieces
// must be found in it exactly as written (else no template is kept, and that
// language's posts are rendered in full). Every later post's page is its
// loaders' data (the route modules' own loaders and meta, called here), its
// five pieces as strings, spliced into that frame. The frame shows no
// content, so no write changes it; it is made again each site-day (the year
// in the footer), and dropped with the identity (a SIGHUP).
// tests/integration/post-fast.test.ts compares both ways over posts of
// every shape, byte for byte.
import { createHash } from "node:crypto";
import type { ServerBuild } from "react-router";
import { type PostArticleData, postArticleHtml } from "#app/components/post-article-html.ts";
import { escaped } from "#app/components/react-markup.ts";
import { ROMAN_LETTERS_SCRIPT } from "#app/components/roman-letters.tsx";
import { IMAGE_SIZES, imageSrcSet } from "#app/content/image-variants.ts";
import { isLanguage, type Language } from "#app/content/languages.ts";
import { readingLabelsFor } from "#app/content/reading-labels.ts";
import { SITE_HEAD_ROUTE_ID } from "#app/content/seo.ts";
import { pageTags } from "#app/data/cache-tags.ts";
import type { PublicSite } from "#app/site.ts";
import { metaHtml } from "./meta-html.ts";
import { etagOf, type RenderedPage } from "./page-cache.ts";
import {
  type Render,
  type Rendered,
  type RenderOptions,
  type RenderRequest,
  type RenderTarget,
  renderContext,
} from "./render.ts";
import { scriptHash, styleHash } from "./script-hashes.ts";
import { contentSecurityPolicy } from "./security.ts";
import { deflatedPart, splicedGzip } from "./spliced-gzip.ts";
import { streamChunkScript, turboStreamOf } from "./turbo-stream.ts";

/** A language's post address, canonical (canonical-url.ts): no query, one segment after the language. */
const POST_ADDRESS = /^\/(english|hindi|marathi)\/([^/?#]+)$/;

/** Whether a canonical address may be a post's page (a language's home is not; post-page.ts says which are). */
export function isPostAddress(url: string): boolean {
  return POST_ADDRESS.test(url) && !url.endsWith("/home");
}

/** The frame's parts compressed as a kept page's are; a post's own pieces as a page sent once (as the home's: home-page.ts). */
const FRAME_PART = { level: 6 };
const PIECE_PART = { level: 3, windowBits: 12 };

/** Frames that fail to cut this many times in a day are not tried again that day (a piece written otherwise than React writes it). */
const MAX_MISSES_A_DAY = 3;

/** The five pieces of a post's page, as its full render writes them. */
interface Pieces {
  /** The post image's preload (React hoists one for an eager, high-priority <img>); "" without an image of its own. */
  preload: string;
  /** The meta's <title>, <meta> and <link> elements. */
  meta: string;
  /** Its JSON-LD scripts. */
  scripts: string;
  article: string;
  /** The loader data's inline script's text. */
  data: string;
  /** The article's own inline scripts' texts (the Roman letters' one), for the page's CSP. */
  articleScripts: string[];
}

interface Frame {
  day: string;
  status: number;
  headers: [string, string][];
  /**
   * The page around the pieces, as UTF-8, and compressed once (spliced-gzip.ts; the last closes
   * the stream): before the head's pieces, between the head and the article, between the article
   * and the data, after the data.
   */
  parts: [Buffer, Buffer, Buffer, Buffer];
  deflated: [Buffer, Buffer, Buffer, Buffer];
  /**
   * The few tags between the head's three pieces (the theme's meta, the icon and feed links):
   * compressed with them for each page, which costs less than two compressors more.
   */
  head: [string, string];
  /** Hashes of the frame's scripts before the article, between it and the data, and after the data. */
  hashes: [string[], string[], string[]];
  styleHashes: string[];
}

/** What the loaders gave a post page: React Router's state, and the parts the pieces are written from. */
interface Loaded {
  language: Language;
  state: { loaderData: Record<string, unknown>; actionData: null; errors: null };
  site: PublicSite;
  article: PostArticleData;
  meta: unknown[];
  tags: string[];
  requestIdToken: string;
}

interface RouteModule {
  loader?: (args: unknown) => unknown;
  meta?: (args: unknown) => unknown;
}

export interface PostPagesOptions extends Omit<RenderOptions, "build" | "vite"> {
  build: ServerBuild;
  /** The full render, which the frames are cut from. */
  render: Render;
  /** The site's day (frames are made again on the next). */
  today: () => string;
}

export interface PostPages {
  /** The post page at this address, or null when it is not one made here (then: a full render). */
  (req: RenderRequest, target: RenderTarget): Promise<Rendered | null>;
  /** Drops every frame (the identity reloaded). */
  clear(): void;
}

/** React Router's data() result: the value, unless it sets a status or headers (then not made here). */
function unwrapped(value: unknown): unknown {
  if (value && typeof value === "object" && (value as { type?: unknown }).type === "DataWithResponseInit") {
    const { data, init } = value as { data: unknown; init?: { status?: number; headers?: unknown } | null };
    if (init && (init.headers !== undefined || (init.status !== undefined && init.status !== 200))) {
      throw new Error("loader data with a status or headers");
    }
    return data;
  }
  return value;
}

/** Where each of `parts` starts in `html`, each found once and in order; null when one is not. */
function placesOf(html: string, parts: readonly string[]): number[] | null {
  const places: number[] = [];
  let from = 0;
  for (const part of parts) {
    if (part === "") {
      places.push(from);
      continue;
    }
    const at = html.indexOf(part, from);
    if (at === -1 || html.indexOf(part, at + 1) !== -1) return null;
    places.push(at);
    from = at + part.length;
  }
  return places;
}

export function createPostPages({ build, render, today, logger, ...context }: PostPagesOptions): PostPages {
  const modules = (id: string) => build.routes[id]?.module as RouteModule | undefined;
  const root = modules("root");
  const head = modules(SITE_HEAD_ROUTE_ID);
  const frames = new Map<string, Frame>();
  /** Frames that did not cut, per key: tried again (a write between the loads and the render can do it), three times a day. */
  const misses = new Map<string, { day: string; count: number }>();
  const making = new Set<string>();

  async function load(
    req: RenderRequest,
    target: RenderTarget,
    language: Language,
    slug: string,
  ): Promise<Loaded | null> {
    const routeId = `routes/${language}`;
    const route = modules(routeId);
    if (!root?.loader || !head?.loader || !route?.loader || !route.meta) return null;
    const tags = new Set<string>();
    const { context: loadContext, requestIdToken } = renderContext(context, target, tags);
    const url = new URL(target.url, target.origin);
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) {
      if (name !== "host" && typeof value === "string") headers.set(name, value);
    }
    const request = new Request(url, { headers, signal: target.signal });
    const args = (params: Record<string, string>) => ({ request, params, context: loadContext });
    let rootData: unknown;
    let headData: unknown;
    let routeData: unknown;
    try {
      [rootData, headData, routeData] = await Promise.all([
        root.loader(args({})),
        head.loader(args({})),
        route.loader(args({ slug })),
      ]);
    } catch {
      // A redirect or a 404 (thrown by the loader): the full render answers it.
      return null;
    }
    rootData = unwrapped(rootData);
    headData = unwrapped(headData);
    routeData = unwrapped(routeData);
    const post = routeData as (PostArticleData & { kind?: unknown; pageLanguage?: unknown }) | null;
    if (post?.kind !== "post" || post.pageLanguage !== language) return null;
    const site = (rootData as { site?: PublicSite } | null)?.site;
    if (!site) return null;
    const params = { slug };
    const loaderData = { root: rootData, [SITE_HEAD_ROUTE_ID]: headData, [routeId]: routeData };
    // As React Router's <Meta/> asks the deepest route: every match, with its data and (none of ours) meta.
    const match = (id: string, pathname: string, data: unknown) => ({
      id,
      pathname,
      params,
      data,
      loaderData: data,
      meta: [],
      handle: undefined,
      error: null,
    });
    const matches = [
      match("root", "/", rootData),
      match(SITE_HEAD_ROUTE_ID, "/", headData),
      match(routeId, url.pathname, routeData),
    ];
    const location = { pathname: url.pathname, search: "", hash: "", state: null, key: "default" };
    const meta = route.meta({
      data: routeData,
      loaderData: routeData,
      params,
      location,
      matches,
      error: null,
    });
    if (!Array.isArray(meta)) return null;
    return {
      language,
      state: { loaderData, actionData: null, errors: null },
      site,
      article: post,
      meta,
      tags: pageTags(tags),
      requestIdToken,
    };
  }

  function piecesOf(loaded: Loaded): Pieces {
    const { article, site } = loaded;
    const { post, roman } = article;
    const box = site.defaultImage;
    let preload = "";
    if (post.hasOwnImage) {
      const srcSet = imageSrcSet(post.image, box.width);
      if (!srcSet && (post.image === site.logo.src || post.image.startsWith("data:"))) {
        // React preloads an image once, and never a data: URL: not written here.
        throw new Error("an image React does not preload as written here");
      }
      preload = srcSet
        ? `<link rel="preload" as="image" imageSrcSet="${escaped(srcSet)}" imageSizes="${escaped(IMAGE_SIZES.post)}" fetchPriority="high"/>`
        : `<link rel="preload" as="image" href="${escaped(post.image)}" fetchPriority="high"/>`;
    }
    const { hoisted, scripts } = metaHtml(loaded.meta);
    // The request id's token stands where the full render had its own, taken out after (render.ts).
    const stream = turboStreamOf(loaded.state).replaceAll(loaded.requestIdToken, "");
    return {
      preload,
      meta: hoisted,
      scripts,
      article: postArticleHtml(article, readingLabelsFor(loaded.language), box),
      data: streamChunkScript(stream),
      articleScripts: roman ? [ROMAN_LETTERS_SCRIPT] : [],
    };
  }

  /** The frame around the pieces of the page `rendered` (a full render of the post those pieces are of); null when they are not found in it as written. */
  function cut(rendered: Rendered, pieces: Pieces, day: string): Frame | null {
    const { html, scripts, styles, page } = rendered;
    if (html === null || page.status !== 200) return null;
    const parts = [pieces.preload, pieces.meta, pieces.scripts, pieces.article, pieces.data];
    const places = placesOf(html, parts);
    if (places === null) return null;
    const frame: string[] = [];
    let from = 0;
    parts.forEach((part, i) => {
      const at = places[i] as number;
      frame.push(html.slice(from, at));
      from = at + part.length;
    });
    frame.push(html.slice(from));
    // The frame's scripts by where they stand: before the article, between it and the data, after.
    const [articleAt, dataAt] = [places[3] as number, places[4] as number];
    const hashes: [string[], string[], string[]] = [[], [], []];
    let at = 0;
    for (const script of scripts) {
      const found = html.indexOf(`>${script}</script>`, at);
      if (found === -1) return null;
      at = found + 1;
      if (at < articleAt) hashes[0].push(scriptHash(script));
      else if (at < articleAt + pieces.article.length) {
        // The article's own (written again for each post).
      } else if (at < dataAt) hashes[1].push(scriptHash(script));
      else if (at > dataAt) hashes[2].push(scriptHash(script));
      at += script.length;
    }
    const [beforeHead, betweenHead, withinHead, beforeArticle, beforeData, afterData] = frame as [
      string,
      string,
      string,
      string,
      string,
      string,
    ];
    const around = [beforeHead, beforeArticle, beforeData, afterData].map((part) => Buffer.from(part));
    return {
      day,
      status: page.status,
      headers: page.headers,
      parts: around as Frame["parts"],
      deflated: around.map((part, i) =>
        deflatedPart(part, { ...FRAME_PART, last: i === around.length - 1 }),
      ) as Frame["deflated"],
      head: [betweenHead, withinHead],
      hashes,
      styleHashes: styles.map(styleHash),
    };
  }

  function assembled(frame: Frame, pieces: Pieces, tags: string[]): RenderedPage {
    const head = Buffer.from(pieces.preload + frame.head[0] + pieces.meta + frame.head[1] + pieces.scripts);
    const article = Buffer.from(pieces.article);
    const data = Buffer.from(pieces.data);
    const [beforeHead, beforeArticle, beforeData, afterData] = frame.parts;
    const parts = [beforeHead, head, beforeArticle, article, beforeData, data, afterData];
    const [deflatedBeforeHead, deflatedBeforeArticle, deflatedBeforeData, deflatedAfterData] = frame.deflated;
    // Made only for a client that takes gzip and not brotli (send-page.ts): brotli of the whole
    // page at quality 0 costs less than compressing the pieces for gzip (decision 098).
    const gzip = () =>
      splicedGzip(parts, [
        deflatedBeforeHead,
        deflatedPart(head, PIECE_PART),
        deflatedBeforeArticle,
        deflatedPart(article, PIECE_PART),
        deflatedBeforeData,
        deflatedPart(data, PIECE_PART),
        deflatedAfterData,
      ]);
    const [before, between, after] = frame.hashes;
    const dataHash = `'sha256-${createHash("sha256").update(pieces.data).digest("base64")}'`;
    let body: Buffer | null = null;
    return {
      status: frame.status,
      headers: frame.headers,
      // Made when first asked (its brotli, the cache's brotli copy, a browser that takes neither).
      get body() {
        body ??= Buffer.concat(parts);
        return body;
      },
      size: parts.reduce((bytes, piece) => bytes + piece.length, 0),
      etag: etagOf(parts),
      csp: contentSecurityPolicy(
        [...before, ...pieces.articleScripts.map(scriptHash), ...between, dataHash, ...after],
        frame.styleHashes,
      ),
      encoded: {},
      gzip,
      tags,
    };
  }

  const postPages = async function postPages(req, target) {
    if (target.gallerySlot) return null;
    const address = POST_ADDRESS.exec(target.url);
    const language = address?.[1];
    if (!address || !isLanguage(language)) return null;
    let slug: string;
    try {
      slug = decodeURIComponent(address[2] as string);
    } catch {
      return null;
    }
    if (slug === "home") return null;
    try {
      const loaded = await load(req, target, language, slug);
      if (!loaded) return null;
      const pieces = piecesOf(loaded);
      const day = today();
      const key = `${target.origin} ${language} ${pieces.preload === "" ? "plain" : "preload"}`;
      const frame = frames.get(key);
      if (frame && frame.day === day) {
        logger?.debug("post page from its frame", { url: target.url });
        return { page: assembled(frame, pieces, loaded.tags), html: null, scripts: [], styles: [] };
      }
      const missed = misses.get(key);
      if (missed && missed.day === day && missed.count >= MAX_MISSES_A_DAY) return null;
      // No frame yet (or of another day): this page is rendered in full, and its frame cut from it; one at a time.
      if (making.has(key)) return null;
      making.add(key);
      try {
        const rendered = await render(req, target);
        if (rendered.page.status !== 200) return rendered;
        const made = cut(rendered, pieces, day);
        if (made) {
          if (frames.size >= 24) frames.clear();
          frames.set(key, made);
          misses.delete(key);
          logger?.debug("post page frame cut", { key, url: target.url });
        } else {
          const count = missed && missed.day === day ? missed.count + 1 : 1;
          misses.set(key, { day, count });
          if (count === MAX_MISSES_A_DAY) {
            logger?.warn("post page frame not cut: this language's post pages are rendered in full today", {
              key,
            });
          }
        }
        return rendered;
      } finally {
        making.delete(key);
      }
    } catch (error) {
      // Written here as it cannot be (an attribute this does not write, data turbo-stream is not given
      // here): the full render makes it.
      logger?.info("post page rendered in full", {
        url: target.url,
        reason: error instanceof Error ? error.message : String(error),
      });
      return null;
    }
  } as PostPages;
  postPages.clear = () => {
    frames.clear();
    misses.clear();
  };
  return postPages;
}

/** A render that makes post pages here and everything else in full. */
export function withPostPages(render: Render, postPages: PostPages): Render {
  return async (req, target) => (await postPages(req, target)) ?? render(req, target);
}
