// Files the server makes once and keeps (share images, resized images): read
// from the cache when there, else made, written atomically (a temporary file
// renamed), and the older versions of the same thing removed. Concurrent
// requests for the same file share one making.
//
// The cache is an optimisation, never a condition of serving: when the file
// cannot be written (a full disk, a read-only directory) the bytes just made
// are served anyway, kept in a small memory cache instead, and the temporary
// file is removed (docs/decisions/045-faults-an-operator-will-meet.md).
import { randomUUID } from "node:crypto";
import { mkdirSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";

const inflight = new Map<string, Promise<Buffer>>();

/** Files that could not be written, by path, oldest first: bounded by MEMORY_BYTES. */
const inMemory = new Map<string, Buffer>();
let inMemoryBytes = 0;
/** ~80 share images or ~500 resized images: what a full disk costs in memory at most. */
const MEMORY_BYTES = 8 * 1024 * 1024;

/** A temporary file older than this was left by a process that died while writing it. */
const STALE_TEMPORARY_MS = 60_000;
const TEMPORARY = /^\..+\.tmp$/;

type WriteFailure = (error: Error, dir: string) => void;
let reportWriteFailure: WriteFailure = () => {};
let lastReportAt = -Infinity;
/** A full disk fails every write: it is reported at most this often. */
const REPORT_EVERY_MS = 60_000;

/** Where failed cache writes are reported (the server's logger), at most once a minute. */
export function onCacheWriteFailure(report: WriteFailure): void {
  reportWriteFailure = report;
}

/**
 * The bytes of `dir/name`, made by `make` when the file is missing. Every
 * other file of `dir` whose name starts with `prefix` is an older version of
 * the same thing and is removed once the new one is written.
 */
export function cachedFile(
  dir: string,
  name: string,
  prefix: string,
  make: () => Promise<Buffer>,
): Promise<Buffer> {
  const file = path.join(dir, name);
  const kept = inMemory.get(file);
  if (kept) return Promise.resolve(kept);
  const pending = inflight.get(file);
  if (pending) return pending;
  const work = (async () => {
    try {
      return await readFile(file);
    } catch {
      // Not in the cache yet: it is made and written below.
    }
    const bytes = await make();
    try {
      write(dir, name, prefix, bytes);
    } catch (error) {
      keepInMemory(file, bytes);
      const now = Date.now();
      if (now - lastReportAt >= REPORT_EVERY_MS) {
        lastReportAt = now;
        reportWriteFailure(error as Error, dir);
      }
    }
    return bytes;
  })().finally(() => inflight.delete(file));
  inflight.set(file, work);
  return work;
}

function write(dir: string, name: string, prefix: string, bytes: Buffer): void {
  mkdirSync(dir, { recursive: true });
  const temporary = path.join(dir, `.${name}.${randomUUID()}.tmp`);
  try {
    writeFileSync(temporary, bytes);
    renameSync(temporary, path.join(dir, name));
  } catch (error) {
    // A full disk leaves the file created and empty or cut short.
    rmSync(temporary, { force: true });
    throw error;
  }
  for (const old of readdirSync(dir)) {
    if (old.startsWith(prefix) && old !== name) rmSync(path.join(dir, old), { force: true });
  }
}

function keepInMemory(file: string, bytes: Buffer): void {
  if (bytes.length > MEMORY_BYTES) return;
  inMemory.set(file, bytes);
  inMemoryBytes += bytes.length;
  for (const [oldest, its] of inMemory) {
    if (inMemoryBytes <= MEMORY_BYTES) break;
    inMemory.delete(oldest);
    inMemoryBytes -= its.length;
  }
}

/**
 * Removes the temporary files a process that died mid-write left in `dir`
 * (at start). Only ones older than a minute: another worker of the same
 * site may be writing the newer ones. Returns how many were removed.
 */
export function removeStaleTemporaries(dir: string, now = Date.now()): number {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return 0;
  }
  let removed = 0;
  for (const name of names) {
    if (!TEMPORARY.test(name)) continue;
    const file = path.join(dir, name);
    try {
      if (now - statSync(file).mtimeMs < STALE_TEMPORARY_MS) continue;
      rmSync(file, { force: true });
      removed++;
    } catch {
      // Gone already, or not ours to remove: the cache works without it.
    }
  }
  return removed;
}
