// The home page (SPEC §7) draws a fresh gallery for every visitor; the rest
// of it (frame, hero, about) changes only with the content. So the home is
// rendered once per content version as a template, with a slot token where
// the gallery goes, and each request only draws its gallery (content/gallery.ts,
// three indexed reads), writes its tiles as a string
// (components/gallery-tiles.tsx) and splices tiles and loader data into the
// template. React Router renders the same page for the same draws: the
// integration tests compare the two byte for byte.
import { createHash, randomBytes } from "node:crypto";
import { galleryTilesHtml } from "#app/components/gallery-tiles.tsx";
import { drawGallery, GALLERY_SLOT_PREFIX } from "#app/content/gallery.ts";
import type { RandomSource } from "#app/content/sampling.ts";
import type { ContentStore } from "#app/data/store.ts";
import type { RenderedPage } from "./page-cache.ts";
import type { Render, Rendered } from "./render.ts";
import { scriptHash, styleHash } from "./script-hashes.ts";
import { contentSecurityPolicy } from "./security.ts";

interface Template {
  status: number;
  headers: [string, string][];
  /** The page around the tiles and the gallery's loader data: before, between, after. */
  html: [string, string, string];
  /** The script holding the loader data, around the gallery's data. */
  script: [string, string];
  /** Hashes of the page's other scripts, before and after that one (page order, as a full render lists them). */
  hashes: [string[], string[]];
  /** Hashes of the page's inline styles (none changes with the gallery). */
  styleHashes: string[];
}

/**
 * The loader data's JSON string as it stands inside React Router's inline
 * script: encoded by turbo-stream (JSON), then as a JavaScript string
 * (JSON again), then escaped for HTML (React Router's escapeHtml).
 */
export function inScriptString(value: string): string {
  return JSON.stringify(JSON.stringify(value))
    .slice(3, -3)
    .replace(/[&><\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
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
  return {
    status: page.status,
    headers: page.headers,
    html: pieces as [string, string, string],
    script: script as [string, string],
    hashes: [
      scripts.slice(0, scripts.indexOf(holder)).map(scriptHash),
      scripts.slice(scripts.indexOf(holder) + 1).map(scriptHash),
    ],
    styleHashes: styles.map(styleHash),
  };
}

export interface HomePageOptions {
  store: ContentStore;
  render: Render;
  randomForRequest: () => RandomSource;
}

export function createHomePage({ store, render, randomForRequest }: HomePageOptions) {
  /** One template per origin (loopback hosts differ by port), a few at most; null when the page did not cut. */
  const templates = new Map<string, { version: string; template: Template | null }>();
  const pending = new Map<string, Promise<{ template: Template | null; kept: boolean }>>();

  async function templateFor(req: Parameters<Render>[0], origin: string, version: string, requestId: string) {
    const known = templates.get(origin);
    if (known?.version === version) return known.template;
    const key = `${origin} ${version}`;
    let making = pending.get(key);
    if (!making) {
      const slot = `${GALLERY_SLOT_PREFIX}${randomBytes(12).toString("hex")}`;
      making = render(req, { url: "/", origin, requestId, gallerySlot: slot })
        // A failed render (an error page) is tried again by the next request.
        .then((rendered) => ({ template: cutTemplate(rendered, slot), kept: rendered.page.status === 200 }))
        .finally(() => pending.delete(key));
      pending.set(key, making);
    }
    const { template, kept } = await making;
    if (!kept) return null;
    if (templates.size >= 16) templates.clear();
    templates.set(origin, { version, template });
    return template;
  }

  /**
   * The home for this request, or null when it must be rendered in full
   * (no template for this content: the page did not cut as expected).
   */
  return async function homePage(
    req: Parameters<Render>[0],
    { origin, version, requestId }: { origin: string; version: string; requestId: string },
  ): Promise<RenderedPage | null> {
    const template = await templateFor(req, origin, version, requestId);
    if (!template) return null;
    const gallery = await drawGallery(store, randomForRequest());
    const data = inScriptString(JSON.stringify(gallery));
    const [before, between, after] = template.html;
    const body = Buffer.from(before + galleryTilesHtml(gallery) + between + data + after);
    const [scriptBefore, scriptAfter] = template.script;
    const dataHash = `'sha256-${createHash("sha256").update(scriptBefore).update(data).update(scriptAfter).digest("base64")}'`;
    return {
      status: template.status,
      headers: template.headers,
      body,
      etag: "",
      csp: contentSecurityPolicy(
        [...template.hashes[0], dataHash, ...template.hashes[1]],
        template.styleHashes,
      ),
      encoded: {},
    };
  };
}
