// Decision 045: a full disk while serving. The image caches (IMAGE_VARIANT_DIR,
// SHARE_IMAGE_DIR) sit on a real file system with no space left, a 64 KiB
// tmpfs filled to the last block: resized images and share images are still
// served (made in memory), and no temporary file is left behind, neither
// from the failed writes nor from an earlier process that died mid-write.
// Mounting needs root (CAP_SYS_ADMIN): without it the test says so and skips.
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import { type Language, postPath } from "#app/content/languages.ts";
import { openReadonly } from "#tests/support/db.ts";
import { getHtml } from "#tests/support/html.ts";
import { type RunningServer, startServer } from "#tests/support/server.ts";

const root = mkdtempSync(path.join(tmpdir(), "sukti-full-disk-"));
const mount = path.join(root, "disk");
const variants = path.join(mount, "variants");
const shares = path.join(mount, "shares");
const STALE = ".english-1-old.jpg.0a1b2c3d.tmp";
let mounted = false;
let server: RunningServer | undefined;

function tryMount(): string | null {
  mkdirSync(mount);
  try {
    execFileSync("mount", ["-t", "tmpfs", "-o", "size=64k", "tmpfs", mount], { stdio: "pipe" });
    mounted = true;
    return null;
  } catch (error) {
    return ((error as { stderr?: Buffer }).stderr?.toString() || String(error)).trim();
  }
}

/** Writes until the file system refuses: not one block is left. */
function fill(dir: string) {
  const chunk = Buffer.alloc(4096, 1);
  for (let i = 0; ; i++) {
    try {
      writeFileSync(path.join(dir, `filler-${i}`), chunk);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOSPC") return;
      throw error;
    }
  }
}

const temporaries = () =>
  [...readdirSync(variants), ...readdirSync(shares)].filter((n) => n.endsWith(".tmp"));

const refused = tryMount();
if (refused) console.warn(`full-disk.test: skipped, cannot mount a tmpfs (${refused})`);

beforeAll(async () => {
  if (!mounted) return;
  mkdirSync(variants);
  mkdirSync(shares);
  // What a process killed mid-write leaves: an old temporary file.
  writeFileSync(path.join(shares, STALE), "");
  const hourAgo = new Date(Date.now() - 3_600_000);
  utimesSync(path.join(shares, STALE), hourAgo, hourAgo);
  fill(mount);
  server = await startServer({
    env: { IMAGE_VARIANT_DIR: variants, SHARE_IMAGE_DIR: shares, LOG_LEVEL: "warn" },
  });
});

afterAll(async () => {
  await server?.stop();
  if (mounted) execFileSync("umount", [mount]);
  rmSync(root, { recursive: true, force: true });
});

test.skipIf(refused !== null)(
  "a full disk still serves resized images and share images, and leaves no temporary file",
  async () => {
    expect(() => writeFileSync(path.join(mount, "one-more"), "x")).toThrow(/ENOSPC/);
    const running = server!;
    for (let round = 0; round < 2; round++) {
      for (const width of [160, 320, 480]) {
        const response = await fetch(`${running.url}/img/${width}/images/cards/english-1.webp`);
        expect(response.status).toBe(200);
        expect(response.headers.get("content-type")).toBe("image/webp");
        const bytes = Buffer.from(await response.arrayBuffer());
        expect(bytes.subarray(0, 4).toString("latin1")).toBe("RIFF");
        expect(bytes.subarray(8, 12).toString("latin1")).toBe("WEBP");
      }
    }

    const db = openReadonly(running.dbPath);
    const posts = db
      .prepare("SELECT language, slug FROM posts WHERE status = 'publish' ORDER BY id LIMIT 3")
      .all() as { language: Language; slug: string }[];
    db.close();
    expect(posts.length).toBe(3);
    for (const post of posts) {
      const { doc } = await getHtml(`${running.url}${postPath(post.language, post.slug)}`);
      const image = doc.querySelector('meta[property="og:image"]')?.getAttribute("content") ?? "";
      const share = new URL(image).pathname;
      expect(share).toMatch(/^\/share\//);
      for (let round = 0; round < 2; round++) {
        const response = await fetch(`${running.url}${share}`);
        expect(response.status).toBe(200);
        expect(response.headers.get("content-type")).toBe("image/jpeg");
        const bytes = Buffer.from(await response.arrayBuffer());
        expect([bytes[0], bytes[1], bytes.at(-2), bytes.at(-1)]).toEqual([0xff, 0xd8, 0xff, 0xd9]);
      }
    }

    expect(temporaries()).toEqual([]);
    // Said once, not once per image.
    const warnings = running
      .output()
      .split("\n")
      .filter((line) => line.includes("cannot write the image cache"));
    expect(warnings.length).toBe(1);
    expect(warnings[0]).toContain("ENOSPC");
  },
);
