// The site's own recordings (decision 052): files in AUDIO_DIR, served at
// /audio/… (server/app.ts). The feed's <enclosure length> is a file's size.
import { statSync } from "node:fs";
import path from "node:path";

/** Where /audio/ is served from, unless AUDIO_DIR says otherwise (relative to the working directory). */
export const DEFAULT_AUDIO_DIR = "public/audio";
export const AUDIO_PATH = "/audio/";

/** The size in bytes of a recording the site serves (a path under /audio/), 0 when unknown or not ours. */
export function localAudioSize(url: string, dir: string): number {
  if (!url.startsWith(AUDIO_PATH)) return 0;
  let relative: string;
  try {
    relative = decodeURIComponent(url.slice(AUDIO_PATH.length).replace(/[?#].*$/s, ""));
  } catch {
    return 0;
  }
  const root = path.resolve(dir);
  const file = path.resolve(root, relative);
  if (!file.startsWith(root + path.sep)) return 0;
  try {
    const stat = statSync(file);
    return stat.isFile() ? stat.size : 0;
  } catch {
    return 0;
  }
}
