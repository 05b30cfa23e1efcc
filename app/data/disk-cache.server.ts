// Files the server makes once and keeps (share images, resized images): read
// from the cache when there, else made, written atomically (a temporary file
// renamed), and the older versions of the same thing removed. Concurrent
// requests for the same file share one making.
import { randomUUID } from "node:crypto";
import { mkdirSync, readdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";

const inflight = new Map<string, Promise<Buffer>>();

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
  const pending = inflight.get(file);
  if (pending) return pending;
  const work = (async () => {
    try {
      return await readFile(file);
    } catch {
      // Not in the cache yet: it is made and written below.
    }
    const bytes = await make();
    mkdirSync(dir, { recursive: true });
    const temporary = path.join(dir, `.${name}.${randomUUID()}.tmp`);
    writeFileSync(temporary, bytes);
    renameSync(temporary, file);
    for (const old of readdirSync(dir)) {
      if (old.startsWith(prefix) && old !== name) rmSync(path.join(dir, old), { force: true });
    }
    return bytes;
  })().finally(() => inflight.delete(file));
  inflight.set(file, work);
  return work;
}
