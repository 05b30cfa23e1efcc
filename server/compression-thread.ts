// Pages sent once are compressed in a thread of their own (decision 099).
// The event loop copies the body into a slot of memory it shares with the
// thread and gets the compressed bytes back (moved, not copied): ~13 µs of
// its time for a 51 kB post page, where Node's own asynchronous zlib (a
// stream and an encoder made on the event loop for each body) takes ~50 µs
// of it and compressing on the event loop ~110 µs. The slots are what keeps
// the thread's memory flat: a body sent in a message would be a copy on the
// thread's side that its garbage collector, seldom run there, frees late
// (~50 MB more at 800 pages a second). One thread, started with the first
// page, unref'd (it never keeps the process alive). A body larger than a
// slot, or sent while every slot is taken, and the pages in the thread if it
// stops (and until it is started again, at most once a second) are
// compressed by Node's asynchronous zlib instead: a page is never lost.
import { Worker } from "node:worker_threads";
import { brotliCompress, constants, gzip } from "node:zlib";
import type { Encoding } from "./compression.ts";
import type { Logger } from "./logger.ts";

/** Quality and level of a page sent once: each paid by one response (decision 098). */
const BROTLI_QUALITY = 0;
const GZIP_LEVEL = 3;
/** The shared slots: a page up to SLOT_BYTES (a post page is ~50–60 kB), SLOTS of them in the thread at once. */
const SLOT_BYTES = 128 * 1024;
const SLOTS = 16;
/** A thread that stopped is started again at most this often. */
const RESTART_EVERY_MS = 1_000;

type Done = (encoded: Buffer | null) => void;

/** The thread's code: CommonJS, self-contained, so it runs the same from the build and from source. */
const THREAD_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const { brotliCompressSync, constants, gzipSync } = require("node:zlib");
const { shared } = workerData;
parentPort.on("message", ({ id, encoding, slot, length }) => {
  const body = new Uint8Array(shared, slot * ${SLOT_BYTES}, length);
  let out = null;
  try {
    out =
      encoding === "gzip"
        ? gzipSync(body, { level: ${GZIP_LEVEL} })
        : brotliCompressSync(body, {
            params: {
              [constants.BROTLI_PARAM_QUALITY]: ${BROTLI_QUALITY},
              [constants.BROTLI_PARAM_SIZE_HINT]: length,
            },
          });
  } catch {
    // Sent back as null: the page goes uncompressed.
  }
  if (!out) return parentPort.postMessage({ id, bytes: null });
  const bytes = new Uint8Array(out.buffer, out.byteOffset, out.byteLength);
  try {
    // Moved to the event loop's side, whose garbage collector runs often.
    parentPort.postMessage({ id, bytes }, [out.buffer]);
  } catch {
    parentPort.postMessage({ id, bytes });
  }
});
`;

/** Node's asynchronous zlib: the compression on libuv's thread pool, its stream on the event loop. */
function compressOnThreadPool(body: Buffer, encoding: Encoding, done: Done): void {
  const callback = (error: Error | null, encoded: Buffer) => done(error ? null : encoded);
  if (encoding === "gzip") gzip(body, { level: GZIP_LEVEL }, callback);
  else {
    const params = {
      [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY,
      [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
    };
    brotliCompress(body, { params }, callback);
  }
}

const shared = new SharedArrayBuffer(SLOT_BYTES * SLOTS);
const free = Array.from({ length: SLOTS }, (_, slot) => slot);
let thread: Worker | null = null;
/** Set while the thread is stopped on purpose (stopCompressionThread): not a stop to report. */
let stopping = false;
/** Where a thread that stopped by itself is reported (compressionThreadLogger). */
let logger: Logger | null = null;
let startedAt = Number.NEGATIVE_INFINITY;
let nextId = 0;
const pending = new Map<number, { body: Buffer; encoding: Encoding; slot: number; done: Done }>();

function running(): Worker | null {
  if (thread) return thread;
  const now = performance.now();
  if (now - startedAt < RESTART_EVERY_MS) return null;
  startedAt = now;
  let started: Worker;
  try {
    started = new Worker(THREAD_SOURCE, {
      eval: true,
      workerData: { shared },
      resourceLimits: { maxOldGenerationSizeMb: 16, maxYoungGenerationSizeMb: 4 },
      stdout: false,
      stderr: false,
    });
  } catch (error) {
    // No thread to be had (the process's limit on threads): Node's zlib compresses meanwhile.
    logger?.warn("compression thread not started", {
      reason: error instanceof Error ? error.message : String(error),
    });
    return null;
  }
  started.unref();
  started.on("message", ({ id, bytes }: { id: number; bytes: Uint8Array | null }) => {
    const waiting = pending.get(id);
    if (!waiting) return;
    pending.delete(id);
    free.push(waiting.slot);
    waiting.done(bytes && Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  });
  const stopped = (why: string) => {
    if (thread !== started) return;
    thread = null;
    // What it held is compressed on the thread pool instead; its slots are free again.
    const left = [...pending.values()];
    pending.clear();
    if (!stopping) logger?.warn("compression thread stopped", { reason: why, pages: left.length });
    for (const { body, encoding, slot, done } of left) {
      free.push(slot);
      compressOnThreadPool(body, encoding, done);
    }
  };
  started.on("error", (error) => stopped(error.message));
  started.on("exit", (code) => stopped(`exit code ${code}`));
  thread = started;
  return started;
}

/**
 * `body` compressed for one response (brotli 0, gzip 3), off the event loop;
 * `done` gets null if compressing failed (the page is then sent as it is).
 */
export function compressForOneResponse(body: Buffer, encoding: Encoding, done: Done): void {
  const worker = body.length <= SLOT_BYTES && free.length > 0 ? running() : null;
  if (!worker) {
    compressOnThreadPool(body, encoding, done);
    return;
  }
  const slot = free.pop() as number;
  new Uint8Array(shared, slot * SLOT_BYTES, body.length).set(body);
  const id = nextId++;
  pending.set(id, { body, encoding, slot, done });
  worker.postMessage({ id, encoding, slot, length: body.length });
}

/** Reports to `to` a compression thread that stopped by itself or could not be started. */
export function compressionThreadLogger(to: Logger): void {
  logger = to;
}

/** Stops the thread (tests); pages still compressing in it are compressed on the thread pool. */
export async function stopCompressionThread(): Promise<void> {
  stopping = true;
  try {
    await thread?.terminate();
  } finally {
    stopping = false;
  }
}
