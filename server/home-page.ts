// The home page (SPEC §7) draws a fresh gallery for every visitor; the rest
// of it (frame, hero, about) changes only with the content. So the home is
// rendered once as a template (again when a write changes what it shows, or
// the site-day ends: visitors get the old one meanwhile, decision 057), with a slot token where
// the gallery goes, and each request only draws its gallery (routes/home-route.server.ts,
// three indexed reads), writes its tiles as a string
// (components/gallery-tiles.tsx) and splices tiles and loader data into the
// template. React Router renders the same page for the same draws: the
// integration tests compare the two byte for byte.
import { createHash, randomBytes } from "node:crypto";
import { galleryTilesHtml } from "#app/components/gallery-tiles.tsx";
import { GALLERY_SLOT_PREFIX } from "#app/content/gallery.ts";
import type { RandomSource } from "#app/content/sampling.ts";
import { ALL_TAG } from "#app/data/cache-tags.ts";
import type { ContentStore } from "#app/data/store.ts";
import { drawGallery } from "#app/routes/home-route.server.ts";
import type { RenderedPage } from "./page-cache.ts";
import type { Render, Rendered, RenderRequest } from "./render.ts";
import { scriptHash, styleHash } from "./script-hashes.ts";
import { contentSecurityPolicy } from "./security.ts";
import { deflatedPart, splicedGzip } from "./spliced-gzip.ts";
import { escapedForScript } from "./turbo-stream.ts";

interface Template {
  status: number;
  headers: [string, string][];
  /** The page around the tiles and the gallery's loader data, as UTF-8: before, between, after. */
  html: [Buffer, Buffer, Buffer];
  /** The script holding the loader data, around the gallery's data. */
  script: [string, string];
  /** Hashes of the page's other scripts, before and after that one (page order, as a full render lists them). */
  hashes: [string[], string[]];
  /** Hashes of the page's inline styles (none changes with the gallery). */
  styleHashes: string[];
  /** The page around the tiles and the data, compressed once (spliced-gzip.ts): before, between, after. */
  deflated: [Buffer, Buffer, Buffer];
}

/** The template's own parts compressed as a kept page's are (gzip's default level); the gallery's, as a page sent once. */
const TEMPLATE_PART = { level: 6 };
const GALLERY_PART = { level: 3, windowBits: 12 };

/**
 * The loader data's JSON string as it stands inside React Router's inline
 * script: encoded by turbo-stream (JSON), then as a JavaScript string
 * (JSON again), then escaped for HTML (React Router's escapeHtml).
 */
export function inScriptString(value: string): string {
  return escapedForScript(JSON.stringify(JSON.stringify(value))).slice(3, -3);
}

/** The template cut at the slot, or null when the page is not what the cut expects (then: full renders). */
export function cutTemplate(rendered: Rendered, slot: string): Template | null {
  const { page, html, scripts, styles } = rendered;
  if (page.status !== 200 || html === null) return null;
  const pieces = html.split(slot);
  const holders = scripts.filter((script) => script.includes(slot));
  const holder = holders[0];
  if (pieces.length !== 3 || holders.length !== 1 || holder === undefined) return null;
  const script = holder.split(slot);
  if (script.length !== 2) return null;
  const [before = "", between = "", after = ""] = pieces;
  return {
    status: page.status,
    headers: page.headers,
    html: [Buffer.from(before), Buffer.from(between), Buffer.from(after)],
    script: script as [string, string],
    hashes: [
      scripts.slice(0, scripts.indexOf(holder)).map(scriptHash),
      scripts.slice(scripts.indexOf(holder) + 1).map(scriptHash),
    ],
    styleHashes: styles.map(styleHash),
    deflated: [
      deflatedPart(Buffer.from(before), TEMPLATE_PART),
      deflatedPart(Buffer.from(between), TEMPLATE_PART),
      deflatedPart(Buffer.from(after), { ...TEMPLATE_PART, last: true }),
    ],
  };
}

export interface HomePageOptions {
  store: ContentStore;
  render: Render;
  randomForRequest: () => RandomSource;
  /** Counts the removals the server applied (app.ts): a template rendered across one is not kept. */
  removals?: () => number;
}

export interface HomePage {
  /**
   * The home for this request, or null when it must be rendered in full
   * (no template for this content: the page did not cut as expected).
   */
  (
    req: RenderRequest,
    target: { origin: string; day: string; requestId: string; url?: string },
  ): Promise<RenderedPage | null>;
  /** A write changed these tags (decision 057): a template showing one is dropped (removal) or refreshed. */
  invalidate(tags: ReadonlySet<string>, removal: boolean): void;
  /** Drops every template (a config reload, say). */
  clear(): void;
  /** Whether the home at this origin and address has a template (one being refreshed counts): a request for it needs no render. */
  ready(origin: string, url: string): boolean;
}

/** The home's addresses, one per language (/, /?lang=hi, /?lang=mr: decision 067), canonical. */
export const HOME_ADDRESS = /^\/(?:\?lang=(?:hi|mr))?$/;

interface Kept {
  day: string;
  template: Template | null;
  tags: readonly string[];
  stale: boolean;
}

export function createHomePage({
  store,
  render,
  randomForRequest,
  removals = () => 0,
}: HomePageOptions): HomePage {
  /**
   * One template per origin (loopback hosts differ by port) and address (/,
   * /?lang=hi, /?lang=mr: decision 067), a few at most; null when the page did not cut.
   */
  const templates = new Map<string, Kept>();
  /** The render under way per origin and address: one at a time, however many visitors ask. */
  const pending = new Map<string, Promise<Template | null | undefined>>();

  /** Renders the template of an origin's address and keeps it; undefined when the render failed (an error page) or crossed a removal. */
  function make(req: RenderRequest, origin: string, url: string, day: string, requestId: string) {
    const key = `${origin} ${url}`;
    let making = pending.get(key);
    if (making) return making;
    const slot = `${GALLERY_SLOT_PREFIX}${randomBytes(12).toString("hex")}`;
    const before = removals();
    making = render(req, { url, origin, requestId, gallerySlot: slot })
      .then((rendered) => {
        // A failed render (an error page) is tried again by the next request.
        if (rendered.page.status !== 200 || removals() !== before) return undefined;
        const template = cutTemplate(rendered, slot);
        if (templates.size >= 16) templates.clear();
        templates.set(key, { day, template, tags: rendered.page.tags ?? [ALL_TAG], stale: false });
        return template;
      })
      .finally(() => pending.delete(key));
    pending.set(key, making);
    return making;
  }

  async function templateFor(
    req: RenderRequest,
    origin: string,
    url: string,
    day: string,
    requestId: string,
  ) {
    const known = templates.get(`${origin} ${url}`);
    if (known && known.day === day && !known.stale) return known.template;
    if (known) {
      // Changed content or a new day: this visitor gets the template as it was while one render replaces it.
      make({ headers: {} }, origin, url, day, requestId).catch(() => {
        // Tried again by the next request.
      });
      return known.template;
    }
    return (await make(req, origin, url, day, requestId)) ?? null;
  }

  const homePage = async function homePage(req, { origin, day, requestId, url = "/" }) {
    const template = await templateFor(req, origin, url, day, requestId);
    if (!template) return null;
    const gallery = await drawGallery(store, randomForRequest());
    const data = inScriptString(JSON.stringify(gallery));
    const [before, between, after] = template.html;
    const tiles = Buffer.from(galleryTilesHtml(gallery));
    const dataBytes = Buffer.from(data);
    const body = Buffer.concat([before, tiles, between, dataBytes, after]);
    // Only the gallery's parts are compressed for this visitor (spliced-gzip.ts).
    const [deflatedBefore, deflatedBetween, deflatedAfter] = template.deflated;
    const gzip = splicedGzip(body, [
      deflatedBefore,
      deflatedPart(tiles, GALLERY_PART),
      deflatedBetween,
      deflatedPart(dataBytes, GALLERY_PART),
      deflatedAfter,
    ]);
    const [scriptBefore, scriptAfter] = template.script;
    const dataHash = `'sha256-${createHash("sha256").update(scriptBefore).update(data).update(scriptAfter).digest("base64")}'`;
    return {
      status: template.status,
      headers: template.headers,
      body,
      size: body.length,
      etag: "",
      csp: contentSecurityPolicy(
        [...template.hashes[0], dataHash, ...template.hashes[1]],
        template.styleHashes,
      ),
      // Sent to any browser that takes gzip (send-page.ts), brotli or not.
      encoded: { gzip },
      // A fresh gallery per visitor: never shared (Cache-Control: no-store).
      tags: null,
    };
  } as HomePage;
  homePage.invalidate = (tags, removal) => {
    for (const [key, kept] of templates) {
      if (!tags.has(ALL_TAG) && !kept.tags.some((tag) => tags.has(tag))) continue;
      if (removal) templates.delete(key);
      else kept.stale = true;
    }
  };
  homePage.clear = () => templates.clear();
  homePage.ready = (origin, url) => (templates.get(`${origin} ${url}`)?.template ?? null) !== null;
  return homePage;
}
