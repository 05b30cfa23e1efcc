import "react-router";
import { randomBytes, randomUUID } from "node:crypto";
import { readdirSync } from "node:fs";
import net from "node:net";
import path from "node:path";
import compression from "compression";
import express, { type NextFunction, type Request, type Response } from "express";
import { createRequestHandler, RouterContextProvider, type ServerBuild } from "react-router";
import type { ViteDevServer } from "vite";
import { type RandomSource, seededRandom } from "#app/content/sampling.ts";
import { cleanSearchText, searchTextFromPath } from "#app/content/search-page.ts";
import { capSearchText, searchPath } from "#app/content/search-text.ts";
import { nonceContext, originContext, randomContext, requestIdContext, storeContext } from "#app/context.ts";
import { projectRoot } from "#app/data/project-root.server.ts";
import type { ResilientSqliteStore } from "#app/data/resilient-store.server.ts";
import { openContentStore } from "#app/data/store.server.ts";
import { ConfigError, parseEnv } from "#app/env.server.ts";
import { deferHydration } from "./hydration.ts";
import { createLogger, type Logger } from "./logger.ts";
import { etagOf, joinParts, PageCache, type RenderedPage, splitAtTokens } from "./page-cache.ts";
import { plainPage } from "./pages.ts";
import { contentSecurityPolicy, securityHeaders } from "./security.ts";

export interface AppOptions {
  store: ResilientSqliteStore;
  logger: Logger;
  /** A fresh random source for each request's gallery. */
  randomForRequest: () => RandomSource;
  /** build/client in production; null when Vite serves assets in development. */
  clientDir: string | null;
  /** PUBLIC_URL: the origin visitors use, when a proxy stands in front. */
  publicUrl?: string;
  /** The server build, loaded once at start (production); Vite loads it per request in development. */
  build?: ServerBuild;
  /** Trust X-Forwarded-* headers (TRUST_PROXY), e.g. "loopback" or a hop count. */
  trustProxy?: string;
  vite?: ViteDevServer;
}

// The page cache keeps 200 responses whose Cache-Control allows it (the home
// page says no-store: a fresh gallery each time), at the site's own addresses
// (a bare path or ?page=N), except search (its addresses are unbounded) and
// images (share images are cached on disk already).
const CACHEABLE_QUERY = /^\?page=[1-9][0-9]{0,5}$/;
const UNCACHED_PATH = /^\/search(\/|$)/;

export function createApp({
  store,
  logger,
  randomForRequest,
  clientDir,
  publicUrl,
  trustProxy,
  build,
  vite,
}: AppOptions) {
  const app = express();
  app.disable("x-powered-by");
  app.disable("etag");
  if (trustProxy) app.set("trust proxy", /^\d+$/.test(trustProxy) ? Number(trustProxy) : trustProxy);
  const publicOrigin = publicUrl ? new URL(publicUrl).origin : null;
  const cache = new PageCache();
  const handle = createRequestHandler(
    vite ? () => vite.ssrLoadModule("virtual:react-router/server-build") as Promise<ServerBuild> : build!,
    vite ? "development" : "production",
  );

  app.use((req, res, next) => {
    const started = performance.now();
    const requestId = randomUUID();
    res.locals.requestId = requestId;
    res.set("X-Request-Id", requestId);
    res.on("finish", () => {
      logger.info("request", {
        method: req.method,
        path: req.originalUrl.slice(0, 2000),
        status: res.statusCode,
        durationMs: Math.round((performance.now() - started) * 10) / 10,
        requestId,
      });
    });
    next();
  });
  app.use(securityHeaders);
  app.use((_req, res, next) => {
    // While shutting down, tell keep-alive clients not to send more on this socket.
    if (app.locals.shuttingDown) res.set("Connection", "close");
    next();
  });
  app.use(compression());

  if (vite) {
    app.use(vite.middlewares);
  } else if (clientDir) {
    // Hashed file names: cache for a year, never revalidate.
    app.use(
      "/assets",
      express.static(path.join(clientDir, "assets"), { immutable: true, maxAge: "1y", index: false }),
    );
    // public/ files: only paths that name one reach the disk, so pages skip a stat.
    const publicFiles = express.static(clientDir, { maxAge: "1h", index: false });
    const topLevel = new Set(readdirSync(clientDir));
    app.use((req, res, next) => {
      const first = req.path.split("/")[1] ?? "";
      if (topLevel.has(first) && first !== "assets") publicFiles(req, res, next);
      else next();
    });
  }

  app.get("/healthz", async (_req, res) => {
    // Down while shutting down, so a load balancer stops sending traffic here.
    const ok = !app.locals.shuttingDown && (await store.ping());
    res
      .status(ok ? 200 : 503)
      .set("Cache-Control", "no-store")
      .json({ ok });
  });

  // A search address with a line break in it (pasted into the address bar)
  // matches no route: React Router's patterns stop at line ends. It gets the
  // same search, its line breaks made spaces, as the search form does.
  app.get(/^\/search\/.*%0[AD]/i, (req, res, next) => {
    const decoded = searchTextFromPath(req.path);
    const { text } = capSearchText(cleanSearchText(decoded ?? ""));
    if (decoded === null || text === "") return next();
    res.redirect(302, searchPath(text));
  });

  app.use(async (req, res, next) => {
    if (req.method !== "GET" && req.method !== "HEAD") {
      res.status(405).set("Allow", "GET, HEAD").type("text/plain").send("Method Not Allowed\n");
      return;
    }
    const requestId = res.locals.requestId as string;
    const nonce = randomBytes(16).toString("hex");
    try {
      if (!(await store.ping())) {
        sendPlain(
          res,
          503,
          "Back in a moment",
          "The site's content is unavailable just now. Please try again shortly.",
          nonce,
        );
        return;
      }
      const key = req.originalUrl;
      const version = store.contentVersion();
      // Any other query string renders fresh, so nobody can fill the cache with junk.
      const query = key.includes("?") ? key.slice(key.indexOf("?")) : "";
      const cacheable =
        version !== null && !UNCACHED_PATH.test(key) && (query === "" || CACHEABLE_QUERY.test(query));
      let page = cacheable ? cache.get(key, version) : null;
      if (!page) {
        page = await render(req, res, requestId);
        const header = (name: string) => page?.headers.find(([n]) => n === name)?.[1] ?? "";
        const keep = page.status === 200 && !/no-store|private/.test(header("cache-control"));
        if (cacheable && keep && !header("content-type").startsWith("image/")) cache.set(key, version, page);
      }
      sendPage(req, res, page, nonce, requestId);
    } catch (error) {
      next(error);
    }
  });

  async function render(req: Request, res: Response, requestId: string): Promise<RenderedPage> {
    // Placeholders, so a cached page can be served with each response's own nonce and id.
    const nonceToken = `n${randomBytes(12).toString("hex")}`;
    const requestIdToken = `r${randomBytes(12).toString("hex")}`;
    const context = new RouterContextProvider();
    context.set(storeContext, store);
    context.set(randomContext, randomForRequest());
    const origin = requestOrigin(req);
    context.set(originContext, publicOrigin ?? origin);
    context.set(nonceContext, nonceToken);
    context.set(requestIdContext, { id: requestId, shown: requestIdToken });
    const controller = new AbortController();
    res.on("close", () => controller.abort());
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) {
      if (typeof value === "string") headers.set(name, value);
      else if (Array.isArray(value)) for (const item of value) headers.append(name, item);
    }
    const url = new URL(req.originalUrl, origin);
    // HEAD renders like GET, so it carries the same headers; Express drops the body.
    const response = await handle(
      new Request(url, { method: "GET", headers, signal: controller.signal }),
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
  }

  function sendPage(req: Request, res: Response, page: RenderedPage, nonce: string, requestId: string) {
    for (const [name, value] of page.headers) res.setHeader(name, value);
    const isHtml = (res.getHeader("content-type") ?? "").toString().includes("text/html");
    if (isHtml) res.set("Content-Security-Policy", contentSecurityPolicy(nonce));
    if (!res.getHeader("cache-control")) {
      res.set("Cache-Control", page.status === 200 ? "public, max-age=0, must-revalidate" : "no-cache");
    }
    if (page.status === 200 && !/no-store/.test(String(res.getHeader("cache-control")))) {
      res.set("ETag", page.etag);
      if (req.headers["if-none-match"]?.split(/\s*,\s*/).includes(page.etag)) {
        // The browser keeps the body it has, whose scripts carry the nonce of the
        // response that sent it; browsers update stored headers from a 304, so a
        // CSP here (with a new nonce) would block every script of that page.
        res.removeHeader("Content-Security-Policy");
        res.status(304).end();
        return;
      }
    }
    res.status(page.status).send(joinParts(page.parts, { nonce, requestId }));
  }

  function sendPlain(res: Response, status: number, title: string, message: string, nonce: string) {
    res
      .status(status)
      .set("Cache-Control", "no-store")
      .set("Content-Security-Policy", contentSecurityPolicy(nonce))
      .type("html")
      .send(plainPage({ status, title, message, requestId: res.locals.requestId as string, nonce }));
  }

  // Last resort: never a stack trace to a visitor; the details go to the log.
  app.use((error: unknown, req: Request, res: Response, _next: NextFunction) => {
    const requestId = res.locals.requestId as string;
    const status = (error as { status?: number }).status;
    if (status && status >= 400 && status < 500) {
      // Malformed requests (bad percent-encoding, oversized headers…).
      sendPlain(
        res,
        400,
        "Bad request",
        "The address could not be read. Please check it and try again.",
        randomBytes(16).toString("hex"),
      );
      return;
    }
    logger.error("request failed", {
      requestId,
      path: req.originalUrl.slice(0, 2000),
      error: error instanceof Error ? error.message : String(error),
      stack: error instanceof Error ? error.stack : undefined,
    });
    if (res.headersSent) return;
    sendPlain(
      res,
      500,
      "Something went wrong",
      "We could not show this page just now. Please try again in a moment.",
      randomBytes(16).toString("hex"),
    );
  });
  return app;
}

const HOST_HEADER =
  /^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)*[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?::\d{1,5})?$|^\[[0-9a-f:.]+\](?::\d{1,5})?$/i;

/** The request's own origin, from a Host header only when it is a well-formed host. */
function requestOrigin(req: Request): string {
  const host = req.get("host") ?? "";
  const safeHost = host.length <= 260 && HOST_HEADER.test(host) ? host : "localhost";
  return `${req.protocol === "https" ? "https" : "http"}://${safeHost}`;
}

const SHUTDOWN_QUIET_MS = 250;
const SHUTDOWN_MAX_DRAIN_MS = 5_000;

/** Production (and development) start: validate config, open the store, listen. */
export async function startServer({ vite }: { vite?: ViteDevServer } = {}) {
  const fail = (message: string): never => {
    process.stderr.write(`sukti: ${message}\n`);
    process.exit(1);
  };
  let env: ReturnType<typeof parseEnv>;
  try {
    env = parseEnv();
  } catch (error) {
    return fail(error instanceof ConfigError ? error.message : String(error));
  }
  const logger = createLogger(env.LOG_LEVEL);
  let store: ResilientSqliteStore;
  try {
    store = openContentStore(env.DATABASE_URL);
  } catch (error) {
    return fail(`cannot open database ${env.DATABASE_URL}: ${(error as Error).message}`);
  }
  const seed = env.SUKTI_RANDOM_SEED;
  const build = vite ? undefined : ((await import("virtual:react-router/server-build")) as ServerBuild);
  const app = createApp({
    build,
    store,
    logger,
    randomForRequest: seed === undefined ? () => Math.random : () => seededRandom(seed),
    clientDir: vite ? null : path.join(projectRoot(), "build", "client"),
    publicUrl: env.PUBLIC_URL,
    trustProxy: env.TRUST_PROXY,
    vite,
  });

  const server = app.listen(env.PORT, env.HOST, () => {
    const address = server.address();
    const port = typeof address === "object" && address ? address.port : env.PORT;
    logger.info("listening", { url: `http://${env.HOST === "0.0.0.0" ? "localhost" : env.HOST}:${port}` });
  });
  let lastConnectionAt = 0;
  server.on("connection", () => {
    lastConnectionAt = Date.now();
  });
  server.on("error", (error) => fail(`cannot listen on ${env.HOST}:${env.PORT}: ${error.message}`));

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.locals.shuttingDown = true;
    logger.info("stopping", { signal });
    // Stop accepting, but unlike http.Server#close do not drop connections
    // already accepted whose request is not read yet: they are in flight.
    // Closing the listener resets whatever still waits in the kernel's accept
    // queue, so keep accepting (answers say Connection: close, /healthz says
    // 503) until no connection has arrived for a quiet period, bounded.
    const stopAt = Date.now();
    const drain = setInterval(() => {
      const now = Date.now();
      if (now - lastConnectionAt < SHUTDOWN_QUIET_MS && now - stopAt < SHUTDOWN_MAX_DRAIN_MS) return;
      clearInterval(drain);
      net.Server.prototype.close.call(server, () => {
        void store.close().finally(() => process.exit(0));
      });
    }, 50);
    // Answers now say Connection: close; keep-alive sockets left idle close
    // after a grace period, and anything still running after a bounded wait.
    setTimeout(() => server.closeIdleConnections(), SHUTDOWN_MAX_DRAIN_MS + 1_000).unref();
    setTimeout(() => server.closeAllConnections(), SHUTDOWN_MAX_DRAIN_MS + 10_000).unref();
  };
  process.on("SIGTERM", () => stop("SIGTERM"));
  process.on("SIGINT", () => stop("SIGINT"));
  return server;
}
