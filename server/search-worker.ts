// Searches rendered off the event loop (docs/decisions/047-searches-in-their-own-thread.md).
// A search is the one page whose cost a visitor chooses and that is never
// served from the page cache: its query, ranking and React render run
// synchronously (SQLite) or in long JavaScript stretches (ranking, React, on
// PostgreSQL too), and everything waits behind them, cached pages included.
// So in production each server process renders searches in one thread of its
// own (worker_threads), with its own store (its own SQLite connection or
// PostgreSQL pool), the same server build and the same renderer; the event
// loop only hands it the address and sends back the bytes. On Linux the
// thread runs at nice SEARCH_THREAD_NICE, so on a busy machine the threads
// that answer pages come first and searches take what CPU is left.
// search-limits.ts still bounds how many searches wait for it.

import type { IncomingMessage } from "node:http";
import { setPriority } from "node:os";
import path from "node:path";
import { isMainThread, Worker, workerData } from "node:worker_threads";
import type { ServerBuild } from "react-router";
import { seededRandom } from "#app/content/sampling.ts";
import { openServedStore } from "#app/data/open-store.server.ts";
import { parseEnv } from "#app/env.server.ts";
import { currentSite, currentSiteVersion, type SiteConfig, setCurrentSite } from "#app/site.ts";
import { compress, MIN_COMPRESSED_BYTES } from "./compression.ts";
import { createLogger, type Logger } from "./logger.ts";
import { isKeptPage, type RenderedPage } from "./page-cache.ts";
import { createRenderer, type Render, type RenderTarget } from "./render.ts";

/** Niceness of the search thread (Linux applies it to the calling thread only). */
export const SEARCH_THREAD_NICE = 10;
/** The search thread's heap: a search past it ends the thread (and that search), not the process. */
const HEAP_MB = 96;
/** A thread that stopped is started again at most this often. */
const RESTART_EVERY_MS = 1_000;

const ROLE = "sukti-search-thread";

type Job = {
  type: "render";
  id: number;
  target: Omit<RenderTarget, "signal">;
  headers: IncomingMessage["headers"];
  /** The process's identity (decision 055), sent with the first search after it changed. */
  site?: { config: SiteConfig; version: string };
};
type Cancel = { type: "cancel"; id: number };
type Answer =
  | {
      id: number;
      /** The body, and its brotli copy when the page is one the cache keeps (made here, off the event loop). */
      page: Omit<RenderedPage, "encoded" | "body"> & { body: Uint8Array; br: Uint8Array | null };
    }
  | { id: number; error: string };

interface Pending {
  resolve: (page: RenderedPage) => void;
  reject: (error: Error) => void;
}

/**
 * A Render that runs in the search thread. Only in a server build (this
 * module is then part of build/server/index.js, which the thread loads);
 * development and unit tests render in the process.
 */
export function searchThreadRenderer({ logger }: { logger: Logger }): Render {
  const entry = new URL(import.meta.url);
  let worker: Worker | null = null;
  let startedAt = Number.NEGATIVE_INFINITY;
  let nextId = 0;
  /** The identity version the running thread was last sent. */
  let sent: { to: Worker; version: string } | null = null;
  const pending = new Map<number, Pending>();

  async function thread(): Promise<Worker> {
    if (worker) return worker;
    const wait = startedAt + RESTART_EVERY_MS - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    if (worker) return worker;
    startedAt = performance.now();
    const started = new Worker(entry, {
      workerData: { role: ROLE },
      resourceLimits: { maxOldGenerationSizeMb: HEAP_MB },
      stdout: false,
      stderr: false,
    });
    started.unref();
    started.on("message", (answer: Answer) => {
      const waiting = pending.get(answer.id);
      if (!waiting) return;
      pending.delete(answer.id);
      if ("error" in answer) return waiting.reject(new Error(`search thread: ${answer.error}`));
      const { body, br, ...page } = answer.page;
      const bytes = (copy: Uint8Array) => Buffer.from(copy.buffer, copy.byteOffset, copy.byteLength);
      waiting.resolve({ ...page, body: bytes(body), encoded: br ? { br: bytes(br) } : {} });
    });
    const stopped = (why: string) => {
      if (worker !== started) return;
      worker = null;
      if (pending.size) logger.error("search thread stopped", { reason: why, searches: pending.size });
      for (const waiting of pending.values()) waiting.reject(new Error(`search thread stopped: ${why}`));
      pending.clear();
    };
    started.on("error", (error) => stopped(error.message));
    started.on("exit", (code) => stopped(`exit code ${code}`));
    worker = started;
    return started;
  }

  // Started with the server, so that the first search does not wait for it.
  void thread();
  return async function renderInThread(req, { signal, ...target }) {
    const id = nextId++;
    const page = new Promise<RenderedPage>((resolve, reject) => pending.set(id, { resolve, reject }));
    const running = await thread();
    const version = currentSiteVersion();
    const site =
      sent?.to === running && sent.version === version ? undefined : { config: currentSite(), version };
    sent = { to: running, version };
    running.postMessage({ type: "render", id, target, headers: req.headers, site } satisfies Job);
    const cancel = () => worker?.postMessage({ type: "cancel", id } satisfies Cancel);
    signal?.addEventListener("abort", cancel, { once: true });
    try {
      return { page: await page, html: null, scripts: [], styles: [] };
    } finally {
      signal?.removeEventListener("abort", cancel);
    }
  };
}

/** The thread's side: its own store and renderer; renders what it is sent, one message per page. */
async function serveSearches() {
  const { parentPort } = await import("node:worker_threads");
  if (!parentPort) return;
  if (process.platform === "linux") {
    try {
      // Linux: this thread only (setpriority on thread id 0).
      setPriority(0, SEARCH_THREAD_NICE);
    } catch {
      // Not allowed here: searches run at the process's priority.
    }
  }
  const env = parseEnv();
  const logger = createLogger(env.LOG_LEVEL);
  const store = await openServedStore(env.DATABASE_URL);
  const build = (await import("virtual:react-router/server-build")) as ServerBuild;
  const seed = env.SUKTI_RANDOM_SEED;
  const render = createRenderer({
    build,
    store,
    logger,
    randomForRequest: seed === undefined ? () => Math.random : () => seededRandom(seed),
    fileCaches: {
      shareImages: path.resolve(env.SHARE_IMAGE_DIR),
      imageVariants: path.resolve(env.IMAGE_VARIANT_DIR),
      audio: path.resolve(env.AUDIO_DIR),
      syncedImages: path.resolve(env.SYNCED_IMAGE_DIR),
    },
  });
  const aborts = new Map<number, AbortController>();
  parentPort.on("message", async (message: Job | Cancel) => {
    if (message.type === "cancel") {
      aborts.get(message.id)?.abort();
      return;
    }
    if (message.site) setCurrentSite(message.site.config, message.site.version);
    const controller = new AbortController();
    aborts.set(message.id, controller);
    try {
      const { page } = await render(
        { headers: message.headers },
        {
          ...message.target,
          signal: controller.signal,
        },
      );
      // A copy of its own, so that only its bytes cross (a small Buffer sits in a shared pool).
      const body = new Uint8Array(page.body);
      // The brotli copy the page cache holds (heldCompressed) is made here too, not on the event loop.
      const compressed =
        isKeptPage(page) && page.size >= MIN_COMPRESSED_BYTES
          ? new Uint8Array(compress(page.body, "br"))
          : null;
      // Only data crosses (a page's own gzip maker, post-page.ts, is a function).
      const { encoded: _encoded, body: _body, gzip: _gzip, ...rest } = page;
      const transfer = compressed ? [body.buffer, compressed.buffer] : [body.buffer];
      parentPort.postMessage(
        { id: message.id, page: { ...rest, body, br: compressed } } satisfies Answer,
        transfer,
      );
    } catch (error) {
      parentPort.postMessage({ id: message.id, error: (error as Error).message } satisfies Answer);
    } finally {
      aborts.delete(message.id);
    }
  });
}

if (!isMainThread && (workerData as { role?: string } | null)?.role === ROLE) {
  serveSearches().catch((error: unknown) => {
    process.stderr.write(`sukti: search thread could not start: ${(error as Error).message}\n`);
    process.exit(1);
  });
}
