// `sukti sync` against a real WordPress (tests/support/wordpress.ts: Debian's
// wordpress 6.1 on MariaDB behind PHP's built-in server), filled and changed
// through WordPress's own PHP API; the synced database read through the built
// server over HTTP. One WordPress for the file; every sync goes to a SQLite
// database and, when PostgreSQL is installed, to a PostgreSQL one, each with
// a server of its own. The tests run in order: each changes the WordPress the
// next one syncs.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { PostRecordSchema } from "#app/content/schemas.ts";
import { runSukti } from "#tests/support/cli.ts";
import { postgresBinDir, sharedPostgres, type TestPostgres } from "#tests/support/postgres.ts";
import { type RunningServer, startServer } from "#tests/support/server.ts";
import { startWordPress, type TestWordPress, wordpressAvailable } from "#tests/support/wordpress.ts";

const ROOT = path.resolve(import.meta.dirname, "../..");
const available = wordpressAvailable();

interface Target {
  name: string;
  databaseUrl: string;
  imageDir: string;
  server?: RunningServer;
}

let wp: TestWordPress;
let dir: string;
let postgres: TestPostgres | undefined;
const targets: Target[] = [];

/** The WordPress post ids, by the name the tests give them. */
const ids: Record<string, number> = {};

beforeAll(async () => {
  if (!available) return;
  dir = mkdtempSync(path.join(tmpdir(), "sukti-wp-sync-"));
  wp = await startWordPress();
  targets.push({
    name: "SQLite",
    databaseUrl: `file:${path.join(dir, "sukti.db")}`,
    imageDir: path.join(dir, "images-sqlite"),
  });
  if (postgresBinDir()) {
    postgres = await sharedPostgres();
    targets.push({
      name: "PostgreSQL",
      databaseUrl: await postgres.createDatabase("wordpress_sync"),
      imageDir: path.join(dir, "images-postgres"),
    });
  }
});

afterAll(async () => {
  for (const target of targets) await target.server?.stop();
  await postgres?.stop();
  await wp?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const sqlite = () => targets[0]!;

/** `sukti sync` of the test WordPress into a target, in this process (tests/support/cli.ts). */
function sync(target: Target, ...args: string[]) {
  return runSukti(["sync", wp.url, ...args], {
    DATABASE_URL: target.databaseUrl,
    SYNCED_IMAGE_DIR: target.imageDir,
  });
}

/** Syncs every target; the outputs must agree but for the database named. */
async function syncAll(...args: string[]): Promise<string> {
  const outputs: string[] = [];
  for (const target of targets) {
    const result = await sync(target, ...args);
    expect(result.stderr, `${target.name}: ${result.stdout}`).toBe("");
    expect(result.status, `${target.name}: ${result.stdout}`).toBe(0);
    // The database's name differs; a request retried (a slow answer on a busy machine) is said but not compared.
    outputs.push(
      result.stdout.replace(/ in \S+(?=[;\n])/, " in DB").replace(/; \d+ requests? retried(?=\n)/, ""),
    );
  }
  for (const output of outputs.slice(1)) expect(output).toBe(outputs[0]);
  return outputs[0]!;
}

async function page(target: Target, pathname: string): Promise<{ status: number; body: string }> {
  const response = await fetch(`${target.server!.url}${pathname}`);
  return { status: response.status, body: await response.text() };
}

/** Every target's server answers `pathname` with this status (and, for 200, a body passing `check`). */
/**
 * The status on the first answer (a post gone is gone at once); the content
 * asked again until it shows: an edited page is served stale while its one
 * fresh render replaces it (decision 057).
 */
async function expectPage(pathname: string, status: number, check?: (body: string) => void): Promise<void> {
  for (const target of targets) {
    let answer = await page(target, pathname);
    expect(answer.status, `${target.name} ${pathname}`).toBe(status);
    if (status !== 200 || !check) continue;
    for (let tries = 1; ; tries++) {
      try {
        check(answer.body);
        break;
      } catch (error) {
        if (tries >= 100) throw error;
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
      answer = await page(target, pathname);
      expect(answer.status, `${target.name} ${pathname}`).toBe(status);
    }
  }
}

/** /hindi/धीरे-धीरे-रे-मना as a URL path. */
const postPath = (language: string, slug: string) => `/${language}/${encodeURIComponent(slug)}`;

/** The featured image's address on a post page (a synced copy under /images/synced/). */
function syncedImage(body: string): string {
  const match = /\/images\/synced\/[^"'\s),]+/.exec(body);
  expect(match, "a synced featured image on the page").not.toBeNull();
  return match![0].replaceAll("&amp;", "&");
}

/** Every row of every table of a SQLite file, as text: equal snapshots, an unchanged database. */
function snapshotSqlite(file: string): string {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    const tables = db
      .prepare(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name",
      )
      .pluck()
      .all() as string[];
    const text = (row: unknown) =>
      JSON.stringify(row, (_key, value) =>
        typeof value === "bigint"
          ? value.toString()
          : Buffer.isBuffer(value)
            ? value.toString("base64")
            : value,
      );
    // Rows sorted as text: FTS tables have no rowid to order by.
    return JSON.stringify(
      tables.map((table) => [table, db.prepare(`SELECT * FROM "${table}"`).raw().all().map(text).sort()]),
    );
  } finally {
    db.close();
  }
}

/** Every row of every table of a PostgreSQL database, as text. */
async function snapshotPostgres(url: string): Promise<string> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const tables = await client.query<{ name: string }>(
      "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY 1",
    );
    const all: unknown[] = [];
    for (const { name } of tables.rows) {
      // The running server's counts of what readers read (decision 056) are not the sync's to keep.
      if (name === "stats_counts") continue;
      const rows = await client.query(`SELECT * FROM ${pg.escapeIdentifier(name)}`);
      all.push([name, rows.rows.map((row) => JSON.stringify(row)).sort()]);
    }
    return JSON.stringify(all);
  } finally {
    await client.end();
  }
}

function snapshot(target: Target): Promise<string> | string {
  return target.databaseUrl.startsWith("file:")
    ? snapshotSqlite(target.databaseUrl.slice("file:".length))
    : snapshotPostgres(target.databaseUrl);
}

/** The slug a synced post got (sync keeps WordPress's id as the post's idNum). */
async function slugOf(target: Target, language: string, idNum: number): Promise<string> {
  const sql = "SELECT slug FROM posts WHERE language = $1 AND id_num = $2";
  if (target.databaseUrl.startsWith("file:")) {
    const db = new Database(target.databaseUrl.slice("file:".length), { readonly: true });
    try {
      const row = db.prepare(sql.replace("$1", "?").replace("$2", "?")).get(language, idNum) as
        | { slug: string }
        | undefined;
      expect(row, `${target.name}: ${language} post ${idNum}`).toBeDefined();
      return row!.slug;
    } finally {
      db.close();
    }
  }
  const client = new pg.Client({ connectionString: target.databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ slug: string }>(sql, [language, idNum]);
    expect(rows.length, `${target.name}: ${language} post ${idNum}`).toBe(1);
    return rows[0]!.slug;
  } finally {
    await client.end();
  }
}

/**
 * Whether an untitled post takes its opening words as title (the `exports`
 * branch's record rule, decision 054): until it is merged, such a post is
 * skipped ("title: is empty") and its test is skipped.
 */
const untitledGetsTitle = PostRecordSchema.safeParse({
  idNum: 1,
  language: "english",
  status: "publish",
  postTime: 1_700_000_000,
  title: "",
  slug: "untitled",
  featureImageUrl: "",
  content: "<p>Opening words of an untitled post.</p>",
  excerpt: "",
  tags: [],
  categories: [],
}).success;

async function restJson<T>(pathname: string): Promise<T> {
  const response = await fetch(`${wp.url}/wp-json/wp/v2/${pathname}`);
  expect(response.status, pathname).toBe(200);
  return (await response.json()) as T;
}

interface RestPost {
  id: number;
  slug: string;
  title: { rendered: string };
  content: { rendered: string };
  featured_media: number;
  categories: number[];
  _embedded?: {
    author?: { name: string }[];
    "wp:featuredmedia"?: { source_url: string }[];
    "wp:term"?: { name: string; taxonomy: string }[][];
  };
}

describe.skipIf(!available)("a real WordPress", () => {
  // Each test does several WordPress page loads and syncs: minutes on a busy machine, not the default 30 s.
  const SLOW = { timeout: 180_000 };

  test(
    "the harness: posts made through WordPress's PHP API show in its REST API, with their changes",
    SLOW,
    async () => {
      await wp.user("harness", { name: "Harness Author" });
      const image = await wp.makeImage("harness.jpg");
      const id = await wp.createPost({
        title: "Harness check",
        content: "<p>Made by the harness.</p>",
        categories: ["English"],
        tags: ["harness"],
        author: "harness",
        image,
      });
      const [post] = await restJson<RestPost[]>(`posts?include=${id}&_embed`);
      expect(post!.title.rendered).toBe("Harness check");
      expect(post!._embedded?.author?.[0]?.name).toBe("Harness Author");
      const terms = (post!._embedded?.["wp:term"] ?? []).flat().map((term) => term.name);
      expect(terms).toEqual(expect.arrayContaining(["English", "harness"]));
      const media = post!._embedded?.["wp:featuredmedia"]?.[0]?.source_url ?? "";
      expect(media).toMatch(new RegExp(`^${wp.url}/wp-content/uploads/.+\\.jpg$`));
      const file = await fetch(media);
      expect(file.status).toBe(200);
      expect(file.headers.get("content-type")).toMatch(/^image\/jpeg/);

      await wp.editPost(id, { title: "Harness check, edited" });
      expect((await restJson<RestPost>(`posts/${id}`)).title.rendered).toBe("Harness check, edited");
      await wp.unpublishPost(id);
      expect((await fetch(`${wp.url}/wp-json/wp/v2/posts/${id}`)).status).toBe(401);
      await wp.editPost(id, { status: "publish" });
      await wp.trashPost(id);
      expect((await restJson<RestPost[]>(`posts?include=${id}`)).length).toBe(0);
      expect((await wp.getPost(id))?.status).toBe("trash");
      await wp.deletePost(id);
      expect(await wp.getPost(id)).toBeNull();
      expect((await fetch(`${wp.url}/wp-json/wp/v2/posts/${id}`)).status).toBe(404);
      // Pretty permalinks: the REST API answered at /wp-json/, not ?rest_route=.
      expect(wp.requests().some((line) => line.startsWith("GET /wp-json/wp/v2/posts"))).toBe(true);
    },
  );

  test(
    "first sync: posts in English, Hindi and Marathi by category, with featured image and author; a post of no language is skipped",
    SLOW,
    async () => {
      // One PHP process for all of it (a WordPress load each is ~1 s on a busy machine).
      const image = (name: string) => path.join(wp.dir, "images", name);
      const made = await wp.act<{ id: number }>([
        { action: "user", login: "emerson", name: "Ralph Waldo Emerson" },
        { action: "user", login: "kabir", name: "कबीर" },
        { action: "user", login: "tukaram", name: "संत तुकाराम" },
        { action: "category", name: "Recipes" },
        { action: "makeImage", path: image("sea.jpg"), width: 640, height: 480, rgb: [20, 90, 160] },
        { action: "makeImage", path: image("kabir.jpg"), width: 480, height: 640, rgb: [200, 120, 40] },
        {
          action: "create",
          title: "The voice of the sea",
          content: "<p>The sea speaks to the one who listens.</p>",
          categories: ["English"],
          tags: ["nature"],
          author: "emerson",
          image: image("sea.jpg"),
        },
        {
          action: "create",
          title: "Small steps",
          content: "<p>Every journey starts where you stand.</p>",
          categories: ["English"],
          author: "emerson",
        },
        {
          action: "create",
          title: "A quote to be deleted",
          content: "<p>Here today, gone tomorrow.</p>",
          categories: ["English"],
          author: "emerson",
        },
        {
          action: "create",
          title: "धीरे धीरे रे मना",
          slug: "धीरे-धीरे-रे-मना",
          content: "<p>धीरे धीरे रे मना, धीरे सब कुछ होय।</p>",
          categories: ["Hindi"],
          tags: ["धैर्य"],
          author: "kabir",
          image: image("kabir.jpg"),
        },
        {
          action: "create",
          title: "वृक्षवल्ली आम्हा सोयरी",
          slug: "वृक्षवल्ली-आम्हा-सोयरी",
          content: "<p>वृक्षवल्ली आम्हा सोयरी वनचरें।</p>",
          categories: ["Marathi"],
          author: "tukaram",
        },
        {
          action: "create",
          title: "Lemon rice",
          content: "<p>Not a quote.</p>",
          categories: ["Recipes"],
          author: "emerson",
        },
      ]);
      for (const [i, name] of ["sea", "steps", "gone", "kabir", "tukaram", "recipe"].entries())
        ids[name] = made[6 + i]!.id;

      const output = await syncAll();
      const [summary, ...rest] = output.trimEnd().split("\n");
      expect(summary).toMatch(
        /^sync http:\/\/127\.0\.0\.1:\d+: 5 created, 0 updated, 0 unpublished, 0 unchanged, 1 skipped in DB; 2 images downloaded$/,
      );
      expect(rest).toEqual([
        expect.stringMatching(new RegExp(`^skipped: post ${ids.recipe} "lemon-rice": language`)),
      ]);

      for (const target of targets) {
        target.server = await startServer({
          env: { DATABASE_URL: target.databaseUrl, SYNCED_IMAGE_DIR: target.imageDir },
        });
      }
      await expectPage("/english/the-voice-of-the-sea", 200, (body) => {
        expect(body).toContain("The voice of the sea");
        expect(body).toContain("The sea speaks to the one who listens.");
        expect(body).toContain("Ralph Waldo Emerson");
      });
      for (const target of targets) {
        const image = syncedImage((await page(target, "/english/the-voice-of-the-sea")).body);
        const response = await fetch(`${target.server!.url}${image}`);
        expect(response.status, image).toBe(200);
        expect(response.headers.get("content-type")).toMatch(/^image\/jpeg/);
      }
      await expectPage("/english/small-steps", 200, (body) => expect(body).toContain("Every journey starts"));
      await expectPage(postPath("hindi", "धीरे-धीरे-रे-मना"), 200, (body) => {
        expect(body).toContain("धीरे सब कुछ होय");
        expect(body).toContain("कबीर");
        expect(body).toMatch(/\/images\/synced\//);
      });
      await expectPage(postPath("marathi", "वृक्षवल्ली-आम्हा-सोयरी"), 200, (body) =>
        expect(body).toContain("संत तुकाराम"),
      );
      await expectPage("/english/lemon-rice", 404);
    },
  );

  test("a second sync with nothing changed writes nothing and says so", SLOW, async () => {
    const before = await Promise.all(targets.map(snapshot));
    const output = await syncAll();
    expect(output).toMatch(/^sync http:\/\/127\.0\.0\.1:\d+: nothing changed \(5 unchanged, 1 skipped\)\n/);
    expect(await Promise.all(targets.map(snapshot))).toEqual(before);
  });

  test(
    "an edit, a trash, a permanent delete, a draft, a new post and a changed featured image, in one sync",
    SLOW,
    async () => {
      const seaBefore = syncedImage((await page(sqlite(), "/english/the-voice-of-the-sea")).body);
      const dawn = path.join(wp.dir, "images", "sea-at-dawn.jpg");
      const made = await wp.act<{ id: number }>([
        {
          action: "update",
          id: ids.steps,
          title: "Small steps, every day",
          content: "<p>Every journey starts with the step you take today.</p>",
        },
        { action: "trash", id: ids.kabir },
        { action: "delete", id: ids.gone },
        { action: "update", id: ids.tukaram, status: "draft" },
        {
          action: "create",
          title: "ज्ञानाचा दिवा",
          slug: "ज्ञानाचा-दिवा",
          content: "<p>ज्ञानाचा दिवा अंधार दूर करतो.</p>",
          categories: ["Marathi"],
          author: "tukaram",
        },
        { action: "makeImage", path: dawn, width: 640, height: 480, rgb: [250, 180, 60] },
        { action: "image", id: ids.sea, image: dawn },
      ]);
      ids.fresh = made[4]!.id;
      expect((await wp.getPost(ids.kabir!))?.status).toBe("trash");
      expect(await wp.getPost(ids.gone!)).toBeNull();

      const output = await syncAll();
      expect(output).toMatch(
        /^sync http:\/\/127\.0\.0\.1:\d+: 1 created, 2 updated, 3 unpublished, 0 unchanged, 1 skipped in DB; 1 image downloaded\n/,
      );

      // The edit keeps the post's address (its slug did not change) and shows the new words.
      await expectPage("/english/small-steps", 200, (body) => {
        expect(body).toContain("Small steps, every day");
        expect(body).toContain("the step you take today");
      });
      await expectPage(postPath("hindi", "धीरे-धीरे-रे-मना"), 404);
      await expectPage("/english/a-quote-to-be-deleted", 404);
      await expectPage(postPath("marathi", "वृक्षवल्ली-आम्हा-सोयरी"), 404);
      await expectPage(postPath("marathi", "ज्ञानाचा-दिवा"), 200, (body) =>
        expect(body).toContain("अंधार दूर करतो"),
      );
      // The page is served stale while its one fresh render replaces it.
      await expectPage("/english/the-voice-of-the-sea", 200, (body) =>
        expect(syncedImage(body)).not.toBe(seaBefore),
      );
      for (const target of targets) {
        const image = syncedImage((await page(target, "/english/the-voice-of-the-sea")).body);
        expect(image).not.toBe(seaBefore);
        expect((await fetch(`${target.server!.url}${image}`)).status).toBe(200);
      }
      for (const target of targets) {
        const home = (await page(target, "/hindi/home")).body;
        expect(home).not.toContain("धीरे सब कुछ होय");
      }
    },
  );

  test.skipIf(!untitledGetsTitle)(
    "an untitled post is published with its opening words as its title",
    SLOW,
    async () => {
      ids.untitled = await wp.createPost({
        title: "",
        content: "<p>Whatever you can do or dream you can, begin it.</p>",
        categories: ["English"],
        author: "emerson",
      });
      const output = await syncAll();
      expect(output).toMatch(/^sync http:\/\/127\.0\.0\.1:\d+: 1 created, 0 updated, 0 unpublished/);
      for (const target of targets) {
        const answer = await page(
          target,
          `/english/${encodeURIComponent(await slugOf(target, "english", ids.untitled!))}`,
        );
        expect(answer.status, target.name).toBe(200);
        expect(answer.body).toContain("begin it.");
        const title =
          /<h1[^>]*>([\s\S]*?)<\/h1>/
            .exec(answer.body)?.[1]
            ?.replace(/<[^>]+>/g, "")
            .trim() ?? "";
        // Its opening words (decision 054), never WordPress's "(no title)".
        expect(title).toMatch(/^Whatever you can do/);
      }
    },
  );

  test(
    "a sync killed (SIGKILL) mid-run leaves the database as it was; the next run does the work",
    SLOW,
    async () => {
      await wp.editPost(ids.steps!, { content: "<p>One step, then the next.</p>" });
      await wp.setFeaturedImage(ids.steps!, await wp.makeImage("steps.jpg"));
      for (const target of targets) {
        const before = await snapshot(target);
        // The run is held at the new image's download: past reading the posts, before writing.
        const hold = wp.hold(/\/wp-content\/uploads\//);
        const child = spawn(process.execPath, [path.join(ROOT, "bin/sukti.js"), "sync", wp.url], {
          cwd: ROOT,
          env: { ...process.env, DATABASE_URL: target.databaseUrl, SYNCED_IMAGE_DIR: target.imageDir },
          stdio: ["ignore", "pipe", "pipe"],
        });
        let output = "";
        child.stdout.on("data", (chunk) => (output += chunk));
        child.stderr.on("data", (chunk) => (output += chunk));
        const exited = new Promise<NodeJS.Signals | null>((resolve) =>
          child.once("exit", (_code, signal) => resolve(signal)),
        );
        try {
          await Promise.race([
            hold.reached(),
            exited.then(() => {
              throw new Error(`${target.name}: sync ended before the held request:\n${output}`);
            }),
          ]);
          child.kill("SIGKILL");
          expect(await exited).toBe("SIGKILL");
        } finally {
          hold.release();
          child.kill("SIGKILL");
        }
        expect(await snapshot(target), target.name).toBe(before);
      }
      await expectPage("/english/small-steps", 200, (body) => expect(body).not.toContain("then the next"));

      const output2 = await syncAll();
      expect(output2).toMatch(/^sync http:\/\/127\.0\.0\.1:\d+: 0 created, 1 updated, 0 unpublished/);
      await expectPage("/english/small-steps", 200, (body) =>
        expect(body).toContain("One step, then the next."),
      );
    },
  );

  test(
    "a slug edited in WordPress moves the post to its new address; a category named मराठी is found by itself",
    SLOW,
    async () => {
      const made = await wp.act<{ id: number }>([
        { action: "update", id: ids.steps, slug: "small-steps-daily" },
        { action: "category", name: "मराठी" },
        {
          action: "create",
          title: "मन करा रे प्रसन्न",
          slug: "मन-करा-रे-प्रसन्न",
          content: "<p>मन करा रे प्रसन्न, सर्व सिद्धीचें कारण.</p>",
          categories: ["मराठी"],
          author: "tukaram",
        },
      ]);
      ids.prasanna = made[2]!.id;
      const output = await syncAll();
      // The renamed post is updated; the Marathi post is new.
      expect(output).toMatch(/^sync http:\/\/127\.0\.0\.1:\d+: 1 created, 1 updated, 0 unpublished/);
      await expectPage("/english/small-steps-daily", 200, (body) =>
        expect(body).toContain("One step, then the next."),
      );
      for (const target of targets) {
        const old = await fetch(`${target.server!.url}/english/small-steps`, { redirect: "manual" });
        expect(old.status, target.name).not.toBe(200);
      }
      await expectPage(postPath("marathi", "मन-करा-रे-प्रसन्न"), 200, (body) =>
        expect(body).toContain("सर्व सिद्धीचें कारण"),
      );
    },
  );

  test(
    "--user with an Application Password: the signed-in read sees private posts, and sync publishes none of them",
    SLOW,
    async () => {
      const password = await wp.applicationPassword("admin");
      const authorization = `Basic ${Buffer.from(`admin:${password}`).toString("base64")}`;
      ids.private = await wp.createPost({
        title: "A private note",
        content: "<p>For the editors only.</p>",
        categories: ["English"],
        author: "emerson",
        status: "private",
      });
      // Signed in, WordPress lists the private post; anonymous, it does not.
      const signedIn = await fetch(`${wp.url}/wp-json/wp/v2/posts?status=private&_fields=id`, {
        headers: { authorization },
      });
      expect(signedIn.status).toBe(200);
      expect(((await signedIn.json()) as { id: number }[]).map((post) => post.id)).toContain(ids.private);
      expect([400, 401]).toContain((await fetch(`${wp.url}/wp-json/wp/v2/posts?status=private`)).status);

      const target = sqlite();
      const before = snapshotSqlite(target.databaseUrl.slice("file:".length));
      const result = await runSukti(["sync", wp.url, "--user", "admin"], {
        DATABASE_URL: target.databaseUrl,
        SYNCED_IMAGE_DIR: target.imageDir,
        SUKTI_WP_PASSWORD: password,
      });
      expect(result.stderr).toBe("");
      expect(result.status).toBe(0);
      expect(result.stdout).toMatch(/^sync http:\/\/127\.0\.0\.1:\d+: nothing changed/);
      expect(snapshotSqlite(target.databaseUrl.slice("file:".length))).toBe(before);
      expect((await page(target, "/english/a-private-note")).status).toBe(404);
      // --user without the password is refused before any request, in one line.
      const refused = await runSukti(["sync", wp.url, "--user", "admin"], {
        DATABASE_URL: target.databaseUrl,
        SUKTI_WP_PASSWORD: "",
      });
      expect(refused.status).not.toBe(0);
      expect(refused.stderr).toMatch(/^sukti: [^\n]*SUKTI_WP_PASSWORD[^\n]*\n$/);
      // A wrong Application Password: WordPress still answers its public routes, sync asks who signed in.
      const wrong = await runSukti(["sync", wp.url, "--user", "admin"], {
        DATABASE_URL: target.databaseUrl,
        SYNCED_IMAGE_DIR: target.imageDir,
        SUKTI_WP_PASSWORD: "abcd efgh ijkl mnop qrst uvwx",
      });
      expect(wrong.status).toBe(1);
      expect(wrong.stderr).toMatch(
        /^sukti: sync [^\n]*refused the user "admin"[^\n]*the database was not changed\n$/,
      );
      expect(snapshotSqlite(target.databaseUrl.slice("file:".length))).toBe(before);
    },
  );

  test(
    "--language-category names a category of another name: its posts are synced in that language",
    SLOW,
    async () => {
      ids.suvichar = await wp.createPost({
        title: "सुविचार",
        slug: "सुविचार",
        content: "<p>सत्य हाच खरा धर्म.</p>",
        categories: ["Suvichar"],
        author: "tukaram",
      });
      const target = sqlite();
      const without = await sync(target);
      expect(without.status).toBe(0);
      expect(without.stdout).toContain(`skipped: post ${ids.suvichar} "सुविचार": language`);
      const withFlag = await sync(target, "--language-category", "marathi=suvichar");
      expect(withFlag.stderr).toBe("");
      expect(withFlag.stdout).toMatch(/^sync http:\/\/127\.0\.0\.1:\d+: 1 created, 0 updated, 0 unpublished/);
      const answer = await page(target, postPath("marathi", "सुविचार"));
      expect(answer.status).toBe(200);
      expect(answer.body).toContain("सत्य हाच खरा धर्म.");
    },
  );
});
