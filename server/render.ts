// Renders a page through React Router's fetch handler, from an Express
// request, into a RenderedPage (body cut at the nonce and request-id
// placeholders, so a cached page is served with each response's own values).
import { randomBytes } from "node:crypto";
import type { Request, Response } from "express";
import { createRequestHandler, RouterContextProvider, type ServerBuild } from "react-router";
import type { ViteDevServer } from "vite";
import type { RandomSource } from "#app/content/sampling.ts";
import { nonceContext, originContext, randomContext, requestIdContext, storeContext } from "#app/context.ts";
import type { ContentStore } from "#app/data/store.ts";
import { deferHydration } from "./hydration.ts";
import { etagOf, type RenderedPage, splitAtTokens } from "./page-cache.ts";

export interface RenderOptions {
  store: ContentStore;
  /** A fresh random source for each request's gallery. */
  randomForRequest: () => RandomSource;
  /** The server build, loaded once at start (production); Vite loads it per request in development. */
  build?: ServerBuild;
  vite?: ViteDevServer;
}

export interface RenderTarget {
  /** Canonical path and query (canonical-url.ts). */
  url: string;
  /** The site's origin for this page (origin.ts). */
  origin: string;
  requestId: string;
}

export function createRenderer({ store, randomForRequest, build, vite }: RenderOptions) {
  const handle = createRequestHandler(
    vite ? () => vite.ssrLoadModule("virtual:react-router/server-build") as Promise<ServerBuild> : build!,
    vite ? "development" : "production",
  );

  return async function render(req: Request, res: Response, target: RenderTarget): Promise<RenderedPage> {
    // Placeholders, so a cached page can be served with each response's own nonce and id.
    const nonceToken = `n${randomBytes(12).toString("hex")}`;
    const requestIdToken = `r${randomBytes(12).toString("hex")}`;
    const context = new RouterContextProvider();
    context.set(storeContext, store);
    context.set(randomContext, randomForRequest());
    context.set(originContext, target.origin);
    context.set(nonceContext, nonceToken);
    context.set(requestIdContext, { id: target.requestId, shown: requestIdToken });
    const controller = new AbortController();
    res.on("close", () => controller.abort());
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) {
      if (name === "host") continue;
      if (typeof value === "string") headers.set(name, value);
      else if (Array.isArray(value)) for (const item of value) headers.append(name, item);
    }
    // HEAD renders like GET, so it carries the same headers; Express drops the body.
    const response = await handle(
      new Request(new URL(target.url, target.origin), { method: "GET", headers, signal: controller.signal }),
      context,
    );
    const isHtml = (response.headers.get("content-type") ?? "").startsWith("text/html");
    // Development keeps React Router's markup as it is (HMR boots through it).
    const body =
      isHtml && !vite
        ? Buffer.from(deferHydration(await response.text()))
        : Buffer.from(await response.arrayBuffer());
    const pageHeaders: [string, string][] = [];
    response.headers.forEach((value, name) => {
      if (name !== "content-length") pageHeaders.push([name, value]);
    });
    return {
      status: response.status,
      headers: pageHeaders,
      parts: splitAtTokens(body, { nonce: nonceToken, requestId: requestIdToken }),
      etag: etagOf(body),
    };
  };
}
