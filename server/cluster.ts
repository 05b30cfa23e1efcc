// `npm start` on every core: a primary process prepares the database once
// (created, migrated, seeded), then forks WEB_CONCURRENCY workers (default:
// one per core) that share the listening socket. A worker that dies is
// replaced; SIGTERM/SIGINT drain every worker (each as shutdown.ts does) and
// the primary exits 0 once all have. WEB_CONCURRENCY=1 keeps one process.
import cluster, { type Worker } from "node:cluster";
import { availableParallelism } from "node:os";
import { describeDatabaseUrl, openServedStore } from "#app/data/open-store.server.ts";
import type { LoadedSite } from "#app/site-config.server.ts";
import { reloadOnHangup, siteMessage, WORKER_SITE_ENV } from "./identity.ts";
import { createLogger } from "./logger.ts";
import { describeOrigin } from "./origin.ts";
import { startSiteSender } from "./push/sender.ts";
import { envOrExit, fail, identityOrExit, pushSetup, startServer } from "./start.ts";

/** A worker that exits sooner than this after it started listening counts as crashing. */
const CRASH_WINDOW_MS = 5_000;
const MAX_QUICK_CRASHES = 5;

export async function startPrimary() {
  const env = envOrExit();
  const count = env.WEB_CONCURRENCY ?? availableParallelism();
  if (count <= 1) return startServer();

  const logger = createLogger(env.LOG_LEVEL);
  // Read once here: a bad file stops the site before any worker starts, and
  // each worker runs what the primary read (server/identity.ts).
  let site = identityOrExit(env);
  // Created, migrated and seeded here, once, before any worker opens it.
  try {
    await (await openServedStore(env.DATABASE_URL, { integrityCheck: true })).close();
  } catch (error) {
    return fail(`cannot open database ${describeDatabaseUrl(env.DATABASE_URL)}: ${(error as Error).message}`);
  }

  // A worker that is going away misses it: its replacement is forked with the identity.
  const tell = (worker: Worker, loaded: LoadedSite) => {
    if (worker.isConnected()) worker.send(siteMessage(loaded), undefined, undefined, () => {});
  };
  let stopping = false;
  let quickCrashes = 0;
  const listeningAt = new Map<Worker, number>();
  const fork = () => {
    const forkedWith = site;
    const worker = cluster.fork({ SUKTI_WORKER: "1", [WORKER_SITE_ENV]: JSON.stringify(forkedWith) });
    worker.once("listening", () => {
      listeningAt.set(worker, Date.now());
      // A reload while it was starting may have come before it listened for messages.
      if (forkedWith.version !== site.version) tell(worker, site);
    });
  };
  cluster.on("exit", (worker, code, signal) => {
    const startedAt = listeningAt.get(worker);
    listeningAt.delete(worker);
    if (stopping) {
      if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(0);
      return;
    }
    if (startedAt === undefined) {
      // It never listened: the configuration or the port is wrong, and a new one would fail alike.
      stopping = true;
      for (const other of Object.values(cluster.workers ?? {})) other?.process.kill("SIGTERM");
      fail(`a worker could not start (exit code ${code ?? signal}); see its message above`);
    }
    quickCrashes = Date.now() - (startedAt ?? 0) < CRASH_WINDOW_MS ? quickCrashes + 1 : 0;
    if (quickCrashes > MAX_QUICK_CRASHES) {
      stopping = true;
      for (const other of Object.values(cluster.workers ?? {})) other?.process.kill("SIGTERM");
      fail(
        `workers keep crashing (${quickCrashes} within ${CRASH_WINDOW_MS / 1000} s of starting); stopping`,
      );
    }
    logger.error("worker died; starting another", { pid: worker.process.pid, code, signal });
    fork();
  });
  let listening = 0;
  cluster.on("listening", (_worker, address) => {
    if (++listening !== count) return;
    logger.info("listening", { port: address.port, workers: count });
    const origin = describeOrigin(env.PUBLIC_URL, address.port);
    if (env.PUBLIC_URL) logger.info("origin", { detail: origin });
    else logger.warn("origin", { detail: origin });
  });
  // The daily quote's one sender of this machine (decision 060): the primary serves no pages.
  const sender =
    env.PUSH_SENDER === "off"
      ? null
      : startSiteSender({
          databaseUrl: env.DATABASE_URL,
          content: () => openServedStore(env.DATABASE_URL),
          config: pushSetup(env),
          logger,
        });
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    void sender?.stop();
    logger.info("stopping", { signal, workers: Object.keys(cluster.workers ?? {}).length });
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill("SIGTERM");
    if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(0);
  };
  process.on("SIGTERM", () => stop("SIGTERM"));
  process.on("SIGINT", () => stop("SIGINT"));
  // SIGHUP: the primary reads the file again and sends a good identity to
  // every worker (the workers keep running: no request is dropped); a worker
  // started later is forked with it. A bad file changes nothing.
  reloadOnHangup(env.SITE_CONFIG, logger, (loaded) => {
    site = loaded;
    for (const worker of Object.values(cluster.workers ?? {})) if (worker) tell(worker, loaded);
  });
  for (let i = 0; i < count; i++) fork();
}
