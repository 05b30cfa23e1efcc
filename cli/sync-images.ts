// Featured images of a synced site, downloaded once into the synced-image
// folder (SYNCED_IMAGE_DIR, served at /images/synced/, resized at
// /img/{width}/images/synced/…), so the WordPress host may go away
// (decision 053). Only from the site's own host or a media host the operator
// named, only image types (the header and the file's first bytes), at most
// 20 MB (read as it comes, dropped past it), no redirect to another host.
import { createHash } from "node:crypto";
import { mkdirSync, readdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { WordPressClient } from "#cli/sync-client.ts";
import type { WpMedia } from "#cli/sync-map.ts";

export const MAX_IMAGE_BYTES = 20 * 1024 * 1024;
/** The address the synced-image folder is served at. */
export const SYNCED_IMAGE_PATH = "/images/synced";

const TYPES: { ext: string; mime: string; test: (b: Buffer) => boolean }[] = [
  { ext: ".jpg", mime: "image/jpeg", test: (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff },
  {
    ext: ".png",
    mime: "image/png",
    test: (b) => b.subarray(0, 8).equals(Buffer.from("89504e470d0a1a0a", "hex")),
  },
  { ext: ".gif", mime: "image/gif", test: (b) => /^GIF8[79]a/.test(b.subarray(0, 6).toString("latin1")) },
  {
    ext: ".webp",
    mime: "image/webp",
    test: (b) =>
      b.subarray(0, 4).toString("latin1") === "RIFF" && b.subarray(8, 12).toString("latin1") === "WEBP",
  },
  { ext: ".avif", mime: "image/avif", test: (b) => b.subarray(4, 12).toString("latin1") === "ftypavif" },
];

/** The image type of a file's first bytes, or null (SVG and anything else: refused). */
export function sniffImage(bytes: Buffer): { ext: string; mime: string } | null {
  return TYPES.find((type) => type.test(bytes)) ?? null;
}

export interface ImageOptions {
  /** The folder (SYNCED_IMAGE_DIR); images of a site go under its host name. */
  dir: string;
  /** Hosts besides the site's own that its media may come from (--media-host). */
  mediaHosts: readonly string[];
  dryRun: boolean;
}

export type ImageResult = { url: string; downloaded: boolean } | { refused: string };

/** A host name safe as a folder name: "blog.example", "127.0.0.1_8080". */
function hostFolder(host: string): string {
  return host.toLowerCase().replace(/[^a-z0-9.-]/g, "_");
}

export class SyncedImages {
  readonly #client: WordPressClient;
  readonly #options: ImageOptions;
  readonly #folder: string;
  readonly #hosts: Set<string>;
  /** File names present in the folder (read once). */
  #present: Set<string> | null = null;

  constructor(client: WordPressClient, options: ImageOptions) {
    this.#client = client;
    this.#options = options;
    this.#folder = hostFolder(client.site.host);
    this.#hosts = new Set([client.site.host, ...options.mediaHosts.map((host) => host.toLowerCase())]);
  }

  #files(): Set<string> {
    if (this.#present) return this.#present;
    try {
      this.#present = new Set(readdirSync(path.join(this.#options.dir, this.#folder)));
    } catch {
      this.#present = new Set();
    }
    return this.#present;
  }

  /**
   * The local address of the media's image, downloaded now if it is not
   * there yet (a dry run only says where it would go). Named by the media's
   * id and a hash of its address: a changed image gets a new name.
   */
  async localCopy(media: WpMedia): Promise<ImageResult> {
    const source = typeof media.source_url === "string" ? media.source_url : "";
    let url: URL;
    try {
      url = new URL(source);
    } catch {
      return { refused: `featured image address ${JSON.stringify(source.slice(0, 80))} is not an address` };
    }
    if (!/^https?:$/.test(url.protocol)) return { refused: `featured image ${url.href} is not http(s)` };
    if (!this.#hosts.has(url.host.toLowerCase())) {
      return {
        refused: `featured image ${url.href.slice(0, 160)} is on another host (${url.host}); name it with --media-host to allow it`,
      };
    }
    const id = Number.isInteger(media.id) ? media.id : 0;
    const stem = `${id}-${createHash("sha256").update(url.href).digest("hex").slice(0, 12)}`;
    const existing = [...this.#files()].find((name) => name.startsWith(`${stem}.`));
    const address = (name: string) => `${SYNCED_IMAGE_PATH}/${this.#folder}/${name}`;
    if (existing) return { url: address(existing), downloaded: false };
    if (this.#options.dryRun) {
      const declared = TYPES.find((type) => type.mime === media.mime_type)?.ext ?? ".jpg";
      return { url: address(`${stem}${declared}`), downloaded: false };
    }
    let body: Buffer;
    try {
      const answer = await this.#client.request(url, {
        hosts: this.#hosts,
        maxBytes: MAX_IMAGE_BYTES,
        check: (response) => {
          const type = (response.headers.get("content-type") ?? "").toLowerCase();
          if (!type.startsWith("image/") || type.startsWith("image/svg")) {
            return `is ${type || "of no content type"}, not a raster image`;
          }
          return null;
        },
      });
      body = answer.body;
    } catch (error) {
      const message = (error as Error).message.replace(/larger than 20 MB/, "larger than 20 MB (the limit)");
      return { refused: `featured image: ${message}` };
    }
    const type = sniffImage(body);
    if (!type)
      return {
        refused: `featured image ${url.href.slice(0, 160)}: its bytes are not a JPEG, PNG, GIF, WebP or AVIF image`,
      };
    const name = `${stem}${type.ext}`;
    const folder = path.join(this.#options.dir, this.#folder);
    mkdirSync(folder, { recursive: true });
    const temporary = path.join(folder, `.${name}.${process.pid}.tmp`);
    try {
      writeFileSync(temporary, body);
      renameSync(temporary, path.join(folder, name));
    } finally {
      rmSync(temporary, { force: true });
    }
    this.#files().add(name);
    return { url: address(name), downloaded: true };
  }
}
