import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

let cached: string | undefined;

/**
 * The checkout's root (where db/ lives), found by walking up from this module:
 * the same answer from app/data/ in source and from build/server/ once bundled.
 */
export function projectRoot(): string {
  if (cached) return cached;
  let dir = path.dirname(fileURLToPath(import.meta.url));
  while (!existsSync(path.join(dir, "db", "migrations"))) {
    const parent = path.dirname(dir);
    if (parent === dir) {
      dir = process.cwd();
      break;
    }
    dir = parent;
  }
  cached = dir;
  return dir;
}
