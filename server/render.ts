// Renders a page through React Router's fetch handler, from a Node request,
// into a RenderedPage: the request id written in (a 200 page shows none, so
// its bytes are the same for every visitor), the render's script token taken
// out and its scripts and styles allowed by hash (script-hashes.ts), and the
// cache tags of what it shows collected from the reads it made (decision 057).
import { randomBytes } from "node:crypto";
import type { IncomingMessage } from "node:http";
import { createRequestHandler, RouterContextProvider, type ServerBuild } from "react-router";
import type { ViteDevServer } from "vite";
import type { RandomSource } from "#app/content/sampling.ts";
import {
  fileCacheContext,
  gallerySlotContext,
  loggerContext,
  nonceContext,
  originContext,
  randomContext,
  requestIdContext,
  storeContext,
} from "#app/context.ts";
import { pageTags, taggedStore } from "#app/data/cache-tags.ts";
import type { ContentStore } from "#app/data/store.ts";
import { deferHydration } from "./hydration.ts";
import type { Logger } from "./logger.ts";
import { etagOf, type RenderedPage } from "./page-cache.ts";
import { scriptHash, sealScripts, styleHash } from "./script-hashes.ts";
import { contentSecurityPolicy, EMBED_FRAME_ANCESTORS, FRAMEABLE_PATH } from "./security.ts";

export interface RenderOptions {
  store: ContentStore;
  /** A fresh random source for each request's gallery. */
  randomForRequest: () => RandomSource;
  /** The server build, loaded once at start (production); Vite loads it per request in development. */
  build?: ServerBuild;
  /** Errors met while rendering go here (loggerContext). */
  logger?: Logger;
  /** Where share images and resized images are kept (fileCacheContext). */
  fileCaches?: { shareImages: string; imageVariants: string; audio?: string; syncedImages?: string };
  vite?: ViteDevServer;
}

export interface RenderTarget {
  /** Canonical path and query (canonical-url.ts). */
  url: string;
  /** The site's origin for this page (origin.ts). */
  origin: string;
  requestId: string;
  /** Aborted when the visitor goes away. */
  signal?: AbortSignal;
  /** Render the home as the fast home's template, this token where the gallery goes. */
  gallerySlot?: string;
}

export interface Rendered {
  page: RenderedPage;
  /** An HTML page's text and its inline scripts and styles (null for anything else). */
  html: string | null;
  scripts: string[];
  styles: string[];
}

/** A render reads only the request's headers (a background refresh makes up its own). */
export type RenderRequest = Pick<IncomingMessage, "headers">;

export type Render = (req: RenderRequest, target: RenderTarget) => Promise<Rendered>;

/**
 * The tokens a render writes (its scripts' nonce, its request id) are this
 * process's secret and the render's number: the secret never leaves the
 * process (every page is sent with the tokens taken out), so no content can
 * hold it but by guessing 96 random bits. A random draw per render cost ~12 µs each.
 */
const TOKEN_SECRET = randomBytes(12).toString("hex");
let renderCount = 0;

/**
 * What a render's loaders and components read (app/context.ts): the store,
 * noting what each read shows in `tags` (decision 057), and the tokens the
 * render writes for its scripts' nonce and its request id, taken out after.
 */
export function renderContext(
  { store, randomForRequest, fileCaches, logger }: Omit<RenderOptions, "build" | "vite">,
  target: RenderTarget,
  tags: Set<string>,
) {
  const count = (renderCount++).toString(36);
  const scriptToken = `n${TOKEN_SECRET}${count}`;
  const requestIdToken = `r${TOKEN_SECRET}${count}`;
  const context = new RouterContextProvider();
  context.set(storeContext, taggedStore(store, tags));
  context.set(randomContext, randomForRequest());
  context.set(originContext, target.origin);
  if (fileCaches) context.set(fileCacheContext, fileCaches);
  if (logger) context.set(loggerContext, logger);
  context.set(nonceContext, scriptToken);
  context.set(requestIdContext, { id: target.requestId, shown: requestIdToken });
  if (target.gallerySlot) context.set(gallerySlotContext, target.gallerySlot);
  return { context, scriptToken, requestIdToken };
}

/** Stands in for a server build not given (no build, no Vite): rendering then fails, saying why. */
function noServerBuild(): never {
  throw new Error("createRenderer: no server build (pass build, or vite in development)");
}

export function createRenderer({
  store,
  randomForRequest,
  build,
  fileCaches,
  logger,
  vite,
}: RenderOptions): Render {
  const handle = createRequestHandler(
    vite
      ? () => vite.ssrLoadModule("virtual:react-router/server-build") as Promise<ServerBuild>
      : (build ?? noServerBuild),
    vite ? "development" : "production",
  );

  return async function render(req, target) {
    const tags = new Set<string>();
    const { context, scriptToken, requestIdToken } = renderContext(
      { store, randomForRequest, fileCaches, logger },
      target,
      tags,
    );
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) {
      if (name === "host") continue;
      if (typeof value === "string") headers.set(name, value);
      else if (Array.isArray(value)) for (const item of value) headers.append(name, item);
    }
    // HEAD renders like GET, so it carries the same headers; Node drops the body.
    const response = await handle(
      new Request(new URL(target.url, target.origin), { method: "GET", headers, signal: target.signal }),
      context,
    );
    const pageHeaders: [string, string][] = [];
    response.headers.forEach((value, name) => {
      if (name !== "content-length") pageHeaders.push([name, value]);
    });
    const isHtml = (response.headers.get("content-type") ?? "").startsWith("text/html");
    if (!isHtml) {
      const body = Buffer.from(await response.arrayBuffer());
      const page = {
        status: response.status,
        headers: pageHeaders,
        body,
        size: body.length,
        etag: etagOf(body),
        csp: null,
        encoded: {},
        tags: pageTags(tags),
      };
      return { page, html: null, scripts: [], styles: [] };
    }
    let text = await response.text();
    // Development keeps React Router's markup as it is (HMR boots through it).
    if (!vite) text = deferHydration(text);
    // Error pages show their request id; a 200 page needs none, nor a 404 (it says "not found"
    // without one, and is kept for the next visitor: decision 080).
    const shown = response.status === 200 || response.status === 404 ? "" : target.requestId;
    text = text.replaceAll(requestIdToken, shown);
    const { html, scripts, styles } = sealScripts(text, scriptToken);
    const body = Buffer.from(html);
    // An embed page (decision 063) may be framed by other sites; no other page may.
    const frameable = FRAMEABLE_PATH.test(target.url);
    const page = {
      status: response.status,
      headers: pageHeaders,
      body,
      size: body.length,
      etag: etagOf(body),
      csp: contentSecurityPolicy(
        scripts.map(scriptHash),
        styles.map(styleHash),
        frameable ? EMBED_FRAME_ANCESTORS : undefined,
      ),
      encoded: {},
      tags: pageTags(tags),
      ...(frameable ? { frameable } : {}),
    };
    return { page, html, scripts, styles };
  };
}
