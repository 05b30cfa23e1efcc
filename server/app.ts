import "react-router";
import { randomUUID } from "node:crypto";
import path from "node:path";
import { createRequestHandler } from "@react-router/express";
import compression from "compression";
import express from "express";
import { RouterContextProvider } from "react-router";
import type { ViteDevServer } from "vite";
import { type RandomSource, seededRandom } from "#app/content/sampling.ts";
import { originContext, randomContext, storeContext } from "#app/context.ts";
import { projectRoot } from "#app/data/project-root.server.ts";
import { openContentStore } from "#app/data/store.server.ts";
import type { ContentStore } from "#app/data/store.ts";
import { ConfigError, parseEnv } from "#app/env.server.ts";
import { createLogger, type Logger } from "./logger.ts";

export interface AppOptions {
  store: ContentStore;
  logger: Logger;
  /** A fresh random source for each request's gallery. */
  randomForRequest: () => RandomSource;
  /** build/client in production; null when Vite serves assets in development. */
  clientDir: string | null;
  /** PUBLIC_URL: the origin visitors use, when a proxy stands in front. */
  publicUrl?: string;
  vite?: ViteDevServer;
}

export function createApp({ store, logger, randomForRequest, clientDir, publicUrl, vite }: AppOptions) {
  const publicOrigin = publicUrl ? new URL(publicUrl).origin : null;
  const app = express();
  app.disable("x-powered-by");
  app.use(compression());

  app.use((req, res, next) => {
    const started = performance.now();
    const requestId = randomUUID();
    res.locals.requestId = requestId;
    res.on("finish", () => {
      logger.info("request", {
        method: req.method,
        path: req.originalUrl,
        status: res.statusCode,
        durationMs: Math.round((performance.now() - started) * 10) / 10,
        requestId,
      });
    });
    next();
  });

  if (vite) {
    app.use(vite.middlewares);
  } else if (clientDir) {
    // Hashed file names: cache for a year, never revalidate.
    app.use(
      "/assets",
      express.static(path.join(clientDir, "assets"), { immutable: true, maxAge: "1y", index: false }),
    );
    app.use(express.static(clientDir, { maxAge: "1h", index: false }));
  }

  app.get("/healthz", async (_req, res) => {
    const ok = await store.ping();
    res
      .status(ok ? 200 : 503)
      .set("Cache-Control", "no-store")
      .json({ ok });
  });

  app.use(
    createRequestHandler({
      build: vite
        ? () => vite.ssrLoadModule("virtual:react-router/server-build") as never
        : () => import("virtual:react-router/server-build"),
      getLoadContext(req) {
        const context = new RouterContextProvider();
        context.set(storeContext, store);
        context.set(randomContext, randomForRequest());
        context.set(originContext, publicOrigin ?? `${req.protocol}://${req.get("host") ?? "localhost"}`);
        return context;
      },
    }),
  );
  return app;
}

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
  let store: ContentStore;
  try {
    store = openContentStore(env.DATABASE_URL);
  } catch (error) {
    return fail(`cannot open database ${env.DATABASE_URL}: ${(error as Error).message}`);
  }
  const seed = env.SUKTI_RANDOM_SEED;
  const app = createApp({
    store,
    logger,
    randomForRequest: seed === undefined ? () => Math.random : () => seededRandom(seed),
    clientDir: vite ? null : path.join(projectRoot(), "build", "client"),
    publicUrl: env.PUBLIC_URL,
    vite,
  });

  const server = app.listen(env.PORT, env.HOST, () => {
    const address = server.address();
    const port = typeof address === "object" && address ? address.port : env.PORT;
    logger.info("listening", { url: `http://${env.HOST === "0.0.0.0" ? "localhost" : env.HOST}:${port}` });
  });
  server.on("error", (error) => fail(`cannot listen on ${env.HOST}:${env.PORT}: ${error.message}`));

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info("stopping", { signal });
    // In-flight requests finish; idle keep-alive sockets close now.
    server.close(() => {
      void store.close().finally(() => process.exit(0));
    });
    server.closeIdleConnections();
    setTimeout(() => {
      server.closeAllConnections();
    }, 10_000).unref();
  };
  process.on("SIGTERM", () => stop("SIGTERM"));
  process.on("SIGINT", () => stop("SIGINT"));
  return server;
}
