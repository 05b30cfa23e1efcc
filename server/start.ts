// `npm start` (and `npm run dev`): validate the configuration, open the
// store, listen with the connection limits, stop gracefully.
import { createServer } from "node:http";
import path from "node:path";
import type { ServerBuild } from "react-router";
import type { ViteDevServer } from "vite";
import { seededRandom } from "#app/content/sampling.ts";
import { describeDatabaseUrl, openServedStore } from "#app/data/open-store.server.ts";
import { projectRoot } from "#app/data/project-root.server.ts";
import type { ServedStore } from "#app/data/store.ts";
import { ConfigError, type Env, parseEnv } from "#app/env.server.ts";
import { onCacheWriteFailure, removeStaleTemporaries } from "#app/images/disk-cache.server.ts";
import { currentSite, setCurrentSite } from "#app/site.ts";
import { type LoadedSite, SiteConfigError } from "#app/site-config.server.ts";
import { createApp } from "./app.ts";
import { capConnections, defaultMaxConnections, SERVER_TIMEOUTS } from "./connection-limits.ts";
import { followPrimary, identityFromPrimary, loadIdentity, reloadOnHangup } from "./identity.ts";
import { createLogger } from "./logger.ts";
import { describeOrigin } from "./origin.ts";
import { pushConfig, pushStoreOnce } from "./push/config.ts";
import { pushEndpoints } from "./push/endpoints.ts";
import { startSiteSender } from "./push/sender.ts";
import { stopOnSignal } from "./shutdown.ts";
import { startSiteStats } from "./stats.ts";

/** Start-up failures: one line on stderr, exit code 1. */
export function fail(message: string): never {
  process.stderr.write(`sukti: ${message}\n`);
  process.exit(1);
}

/** The validated environment, or one line and exit 1. */
export function envOrExit(): Env {
  try {
    return parseEnv();
  } catch (error) {
    return fail(error instanceof ConfigError ? error.message : String(error));
  }
}

/** SITE_CONFIG's identity, made the running one, or one line and exit 1. */
export function identityOrExit(env: Env): LoadedSite {
  try {
    return loadIdentity(env.SITE_CONFIG);
  } catch (error) {
    return fail(error instanceof SiteConfigError ? error.message : String(error));
  }
}

/** The push settings, or one line and exit 1. */
export function pushSetup(env: Env) {
  try {
    return pushConfig(env);
  } catch (error) {
    return fail((error as Error).message);
  }
}

export async function startServer({ vite }: { vite?: ViteDevServer } = {}) {
  const env = envOrExit();
  const logger = createLogger(env.LOG_LEVEL);
  // A worker runs the identity its primary read; one process reads the file, and again on SIGHUP.
  if (env.SUKTI_WORKER && identityFromPrimary()) followPrimary(logger);
  else {
    identityOrExit(env);
    reloadOnHangup(env.SITE_CONFIG, logger, (site) => setCurrentSite(site.config, site.version));
  }
  let store: ServedStore;
  try {
    // The integrity check reads the whole file: once per site, not per worker.
    store = await openServedStore(env.DATABASE_URL, { integrityCheck: !env.SUKTI_WORKER });
  } catch (error) {
    return fail(`cannot open database ${describeDatabaseUrl(env.DATABASE_URL)}: ${(error as Error).message}`);
  }
  if (store.readOnlyReason && !env.SUKTI_WORKER)
    logger.warn("serving read-only", { reason: store.readOnlyReason });
  const fileCaches = {
    shareImages: path.resolve(env.SHARE_IMAGE_DIR),
    imageVariants: path.resolve(env.IMAGE_VARIANT_DIR),
    audio: path.resolve(env.AUDIO_DIR),
    syncedImages: path.resolve(env.SYNCED_IMAGE_DIR),
  };
  // A process that died mid-write left its temporary file; a full disk is
  // said once a minute, and the images are served from memory meanwhile.
  for (const dir of [fileCaches.shareImages, fileCaches.imageVariants]) removeStaleTemporaries(dir);
  onCacheWriteFailure((error, dir) =>
    logger.warn("cannot write the image cache; serving images from memory", { dir, error: error.message }),
  );
  const seed = env.SUKTI_RANDOM_SEED;
  // The daily quote by Web Push (decision 060): its store opened on first use.
  const push = pushSetup(env);
  const pushStore = pushStoreOnce(env.DATABASE_URL);
  const build = vite ? undefined : ((await import("virtual:react-router/server-build")) as ServerBuild);
  const app = createApp({
    build,
    store,
    health: () => store.health(),
    contentVersion: () => store.contentVersion(),
    changesSince: (cursor) => store.changesSince(cursor),
    sharedCache: { maxAge: env.CACHE_S_MAXAGE, stale: env.CACHE_STALE_WHILE_REVALIDATE },
    warmUp: env.WARM_UP === "on",
    logger,
    randomForRequest: seed === undefined ? () => Math.random : () => seededRandom(seed),
    clientDir: vite ? null : path.join(projectRoot(), "build", "client"),
    publicUrl: env.PUBLIC_URL,
    searchLimits: env.SEARCH_LIMITS === "on",
    apiRateLimit: env.API_RATE_LIMIT,
    pageCache: env.PAGE_CACHE === "on",
    postPages: env.POST_PAGES === "on",
    trustProxy: env.TRUST_PROXY,
    fileCaches,
    vite,
    push: pushEndpoints({ store: pushStore.get, config: push, logger }),
  });

  // What readers read, counted in memory and written in batches (decision 056).
  const stats = startSiteStats(env, logger, currentSite().timeZone);
  // The daily quote's one sender (decision 060): here when this is the only process, else the primary's.
  const sender =
    env.SUKTI_WORKER || env.PUSH_SENDER === "off"
      ? null
      : startSiteSender({ databaseUrl: env.DATABASE_URL, content: async () => store, config: push, logger });
  const server = createServer(SERVER_TIMEOUTS, app.listener);
  const maxConnections = env.MAX_CONNECTIONS ?? defaultMaxConnections();
  capConnections(server, maxConnections);
  server.on("error", (error) => fail(`cannot listen on ${env.HOST}:${env.PORT}: ${error.message}`));
  server.listen(env.PORT, env.HOST, () => {
    const address = server.address();
    const port = typeof address === "object" && address ? address.port : env.PORT;
    logger.info("listening", {
      url: `http://${env.HOST === "0.0.0.0" ? "localhost" : env.HOST}:${port}`,
      maxConnections,
      pid: process.pid,
    });
    // In a cluster the primary says this, once.
    if (env.SUKTI_WORKER) return;
    const origin = describeOrigin(env.PUBLIC_URL, port);
    if (env.PUBLIC_URL) logger.info("origin", { detail: origin });
    else logger.warn("origin", { detail: origin });
  });
  stopOnSignal(server, {
    logger,
    markStopping: app.markStopping,
    closed: async () => {
      await stats?.stop();
      await sender?.stop();
      await pushStore.close();
      await store.close();
    },
  });
  return server;
}
