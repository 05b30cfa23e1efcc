// Decision 054: a WordPress 6.x export as real sites leave it
// (tests/fixtures/wxr/real-world.xml, described in tests/fixtures/wxr/SOURCE.md)
// imports whole: what is published, with which titles and content, what is
// stored unpublished, what is skipped, and what the report says. On SQLite,
// and once on PostgreSQL. `sukti import` is run as a user runs it (cli/main.ts
// in this process), and what a visitor would get is read through the store
// the server reads.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { Language } from "#app/content/languages.ts";
import { openServedStore } from "#app/data/open-store.server.ts";
import { importFile } from "#cli/import.ts";
import { runSukti } from "#tests/support/cli.ts";
import { postgresAvailable, sharedPostgres, type TestPostgres } from "#tests/support/postgres.ts";

const FIXTURE = path.resolve(import.meta.dirname, "../tests/fixtures/wxr/real-world.xml");

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), "sukti-real-world-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Generous: a busy machine (load 20 on 2 cores) takes seconds to start the import's worker thread. */
const SLOW = 120_000;

const sukti = (databaseUrl: string, ...args: string[]) =>
  runSukti(args, { DATABASE_URL: databaseUrl, SUKTI_DEBUG: "" });

/** The fixture's text, changed, in a temporary file. */
function variant(name: string, change: (text: string) => string): string {
  const file = path.join(dir, name);
  writeFileSync(file, change(readFileSync(FIXTURE, "utf8")));
  return file;
}

const MARATHI_MADE =
  "मनाचिये गुंती गुंफियेला शेला, जाणीव-नेणीवेच्या पलीकडे नेणारा हा अभंग संत तुकारामांनी देहूच्या डोंगरावर लिहिला असे…";
/** 300 characters as JavaScript counts them (the 🙏🏽 is four); the limit is 500. */
const LONG_ENGLISH_TITLE = `On the long road from the river to the mountain the pilgrim learns that every step is a prayer, every stone a teacher, every stranger a brother, and every silence an answer; and when at last the summit is reached, he finds that the mountain was never the goal, only the road and the love 🙏🏽${"!".repeat(8)}`;
/** 300 Devanagari letters and marks, as exported (a title is trimmed). */
const LONG_HINDI_TITLE = "प्रेम गली अति साँकरी, तामें दो न समाहिं; जब मैं था तब हरि नहीं, अब हरि हैं मैं नाहिं। "
  .repeat(4)
  .slice(0, 300)
  .trim();
const LONG_ENGLISH_SLUG =
  "on-the-long-road-from-the-river-to-the-mountain-the-pilgrim-learns-that-every-step-is-a-prayer-every-stone-a-teacher-every-stranger-a-brother-and-every-silence-an-answer-and-when-at-last-the-summit-is";

/** Every post as stored: idNum → [language, status, slug, title]. */
const EXPECTED_POSTS: Record<number, [Language, string, string, string]> = {
  11: ["english", "publish", "love-is-the-bridge", "Love 🙏🏽 is the bridge"],
  12: ["hindi", "publish", "12", "जब मैं था तब हरि नहीं, अब हरि हैं मैं नाहिं।"],
  13: ["marathi", "publish", "13", MARATHI_MADE],
  15: ["english", "publish", "silence", "Silence"],
  16: ["hindi", "private", "गुप्त-दोहा", "गुप्त दोहा"],
  17: ["marathi", "private", "खाजगी-टिपण", "खाजगी टिपण"],
  18: ["english", "future", "tomorrows-saying", "Tomorrow's saying"],
  // A draft has no wp:post_name: its slug is made from its title, and item 37 (published) already has that one.
  19: ["hindi", "draft", "प्रेम-गली-अति-साँकरी-2", "प्रेम गली अति साँकरी"],
  20: ["english", "pending", "awaiting-review", "Awaiting review"],
  22: ["english", "publish", LONG_ENGLISH_SLUG, LONG_ENGLISH_TITLE],
  32: ["marathi", "publish", "पंढरीची-वारी", "पंढरीची वारी"],
  33: ["hindi", "publish", "दीप-जले", "दीप जले 🪔"],
  34: ["english", "publish", "34", "Sunrise over the Ganga"],
  37: ["hindi", "publish", "प्रेम-गली-अति-साँकरी", LONG_HINDI_TITLE],
};

const REPORT_LINES = [
  "posts: 14 created, 0 updated, 0 unchanged",
  "pages: 1 created, 0 updated, 0 unchanged",
  "skipped: 13 (4 attachment (used for featured images); 1 untitled, and no words in its content to make a title of; 1 untitled draft; 1 page with status draft; 1 post_type nav_menu_item; 1 post_type revision; 1 post_type quote_card; 1 post_type oembed_cache; 1 post_type wp_global_styles; 1 post_type wp_block)",
  "not published: 5 (1 draft; 1 future; 1 password-protected; 1 pending; 1 private)",
  "titles made from the opening words: 3",
  '  item 3 (wp:post_id 12) [hindi "12"]: "जब मैं था तब हरि नहीं, अब हरि हैं मैं नाहिं।"',
  `  item 4 (wp:post_id 13) [marathi "13"]: ${JSON.stringify(MARATHI_MADE)}`,
  '  item 25 (wp:post_id 34) [english "34"]: "Sunrise over the Ganga"',
];

type Row = {
  id_num: number;
  language: Language;
  status: string;
  slug: string;
  title: string;
  content: string;
  excerpt: string;
};

function sqliteRows(file: string): {
  posts: Row[];
  pages: { slug: string; title: string; content: string }[];
} {
  const db = new Database(file, { readonly: true });
  try {
    return {
      posts: db
        .prepare("SELECT id_num, language, status, slug, title, content, excerpt FROM posts ORDER BY id_num")
        .all() as Row[],
      pages: db.prepare("SELECT slug, title, content FROM pages ORDER BY slug").all() as Row[],
    };
  } finally {
    db.close();
  }
}

/**
 * No block delimiter, shortcode or embed in stored content. The one "[gallery"
 * allowed is the text the author escaped as `[[gallery]]` to show it (post 22).
 */
function expectClean(content: string): void {
  const html = content.replace("<p>Write [gallery] to show a gallery.</p>", "");
  expect(html).not.toContain("<!--");
  expect(html).not.toMatch(/\[\/?(gallery|caption|embed|audio|video|su_quote|contact-form-7|playlist)\b/);
  expect(html).not.toMatch(/<(iframe|audio|video|script|object|embed)\b/i);
}

function expectPosts(rows: Row[]): void {
  expect(LONG_ENGLISH_TITLE.length).toBe(300);
  expect(Object.fromEntries(rows.map((r) => [r.id_num, [r.language, r.status, r.slug, r.title]]))).toEqual(
    EXPECTED_POSTS,
  );
  for (const row of rows) expectClean(row.content);
  const byId = new Map(rows.map((r) => [r.id_num, r]));
  const content = (id: number) => byId.get(id)?.content ?? "";
  // Blocks: their HTML stays; the gallery shortcode and server-rendered blocks leave nothing.
  expect(content(11)).toBe(
    '<p>Love is the bridge between you and everything. 🌉</p>\n<figure><img src="https://santvani.example.org/wp-content/uploads/2024/03/bridge-1024x683.jpg" alt="A rope bridge at dawn" /></figure>\n<blockquote>\n<p>Wherever you are, and whatever you do, be in love.</p>\n<cite>Rumi</cite></blockquote>',
  );
  // Classic text: paragraphs, <!--more--> gone and its teaser the excerpt; [caption] a figure.
  expect(content(12)).toContain(
    "<p>जब मैं था तब हरि नहीं, अब हरि हैं मैं नाहिं।<br />\nसब अँधियारा मिट गया, जब दीपक देख्या माहिं॥</p>",
  );
  expect(content(12)).toContain("<figcaption>दीपक का प्रकाश</figcaption>");
  expect(byId.get(12)?.excerpt).toBe(
    "जब मैं था तब हरि नहीं, अब हरि हैं मैं नाहिं। सब अँधियारा मिट गया, जब दीपक देख्या माहिं॥",
  );
  // Empty content stays empty; a written excerpt (CDATA split around "]]>") is kept as written.
  expect(content(15)).toBe("");
  expect(byId.get(22)?.excerpt).toBe("The river, the sea ]]> and the road.");
  const post22 = content(22);
  expect(post22).toContain("<figcaption>The bridge at dawn</figcaption>");
  expect(post22).toContain("if (a[b[0]]&gt; 1) the loop ends. [sic]</p>");
  for (const url of [
    "https://www.youtube.com/watch?v=dQw4w9WgXcQ",
    "https://vimeo.com/76979871",
    "https://santvani.example.org/wp-content/uploads/2024/03/river.mp3",
    "https://santvani.example.org/wp-content/uploads/2024/03/river.mp4",
  ]) {
    expect(post22).toContain(`<p><a href="${url}" rel="noopener noreferrer nofollow">${url}</a></p>`);
  }
  expect(post22).toContain("<p>What you seek is seeking you.</p>");
  expect(post22).toContain("<p>Write [gallery] to show a gallery.</p>\n<p>The second page of the post.</p>");
  expect(post22).not.toContain("nextpage");
  // The audio block's player: a link to its file (the post's recording is its audio attachment).
  expect(content(32)).toBe(
    '<p>माझे माहेर पंढरी, आहे भिवरेच्या तीरी।</p>\n<figure><p><a href="https://santvani.example.org/wp-content/uploads/2024/03/pandharichi-vari.mp3" rel="noopener noreferrer nofollow">https://santvani.example.org/wp-content/uploads/2024/03/pandharichi-vari.mp3</a></p></figure>',
  );
  // A bare URL on its own line is a link; 4-byte emoji kept.
  expect(content(33)).toBe(
    '<p>मन का दीप जलाओ 🪔🙏🏽</p>\n<p><a href="https://www.youtube.com/watch?v=abc123" rel="noopener noreferrer nofollow">https://www.youtube.com/watch?v=abc123</a></p>\n<p><a href="https://www.youtube.com/watch?v=xyz789" rel="noopener noreferrer nofollow">https://www.youtube.com/watch?v=xyz789</a></p>',
  );
}

test(
  "a real WordPress 6.x export imports whole: published posts, made titles, clean content, skips and the report",
  async () => {
    const file = path.join(dir, "first.db");
    const url = `file:${file}`;
    const result = await sukti(url, "import", FIXTURE, "--source-field", "author");
    expect(result.stderr).toBe("");
    expect(result.status).toBe(0);
    const lines = result.stdout.trimEnd().split("\n");
    expect(lines.slice(1)).toEqual(REPORT_LINES);

    const { posts, pages } = sqliteRows(file);
    expectPosts(posts);
    expect(pages).toEqual([
      {
        slug: "about",
        title: "About",
        content: "<p>We collect the sayings of the saints in English, हिंदी and मराठी.</p>",
      },
    ]);

    // What a visitor gets, through the store the server reads.
    const store = await openServedStore(url);
    try {
      const kabir = await store.getPost("hindi", "12");
      expect(kabir?.title).toBe("जब मैं था तब हरि नहीं, अब हरि हैं मैं नाहिं।");
      expect(kabir?.tags.map((t) => t.name)).toEqual(["प्रेम"]);
      expect(kabir?.categories.map((t) => t.name)).toEqual(["दोहे"]);
      const tukaram = await store.getPost("marathi", "पंढरीची-वारी");
      expect(tukaram?.source?.person?.names.marathi).toBe("तुकाराम महाराज");
      expect(tukaram?.audioUrl).toBe(
        "https://santvani.example.org/wp-content/uploads/2024/03/pandharichi-vari.mp3",
      );
      expect((await store.getPost("english", "love-is-the-bridge"))?.featureImageUrl).toBe(
        "https://santvani.example.org/wp-content/uploads/2024/03/bridge.jpg",
      );
      // Unpublished posts (password-protected, private, scheduled, draft, pending) are nowhere.
      for (const [language, slug] of [
        ["hindi", "गुप्त-दोहा"],
        ["marathi", "खाजगी-टिपण"],
        ["english", "tomorrows-saying"],
        ["hindi", "प्रेम-गली-अति-साँकरी-2"],
        ["english", "awaiting-review"],
      ] as const) {
        expect(await store.getPost(language, slug), slug).toBeNull();
      }
      expect((await store.searchPosts("सदस्यों", 1, 10)).posts).toEqual([]);
      // A made title is searched and listed like any other.
      const found = await store.searchPosts("मनाचिये गुंती", 1, 10);
      expect(found.posts.map((p) => p.title)).toEqual([MARATHI_MADE]);
      const hindi = await store.listPosts({ language: "hindi" }, 1, 24);
      expect(hindi.posts.map((p) => p.slug).sort()).toEqual(["12", "दीप-जले", "प्रेम-गली-अति-साँकरी"].sort());
      for (const language of ["english", "hindi", "marathi"] as const) {
        for (const post of (await store.listPosts({ language }, 1, 24)).posts) {
          const full = await store.getPost(language, post.slug);
          expectClean(full?.content ?? "");
          expect(full?.title).not.toBe("");
        }
      }
    } finally {
      await store.close();
    }

    // The same file again changes nothing.
    const again = await sukti(url, "import", FIXTURE, "--source-field", "author");
    expect(again.status, again.stderr).toBe(0);
    expect(again.stdout).toContain("posts: 0 created, 0 updated, 14 unchanged");
    expect(sqliteRows(file).posts).toEqual(posts);
  },
  SLOW,
);

test(
  "records prepared on a worker thread (files of 1 MB and more) give the same rows",
  async () => {
    const file = path.join(dir, "worker.db");
    const report = await importFile({ file: FIXTURE, databaseUrl: `file:${file}`, worker: true });
    expect(report).toMatchObject({ created: 14, skipped: 13, titlesMade: 3 });
    expectPosts(sqliteRows(file).posts);
  },
  SLOW,
);

test(
  "a post published by an earlier import leaves the site when the export protects it with a password",
  async () => {
    const url = `file:${path.join(dir, "protect.db")}`;
    const open = variant("open.xml", (text) => text.replace("<![CDATA[kabir123]]>", "<![CDATA[]]>"));
    expect((await sukti(url, "import", open)).status).toBe(0);
    const before = await openServedStore(url);
    try {
      expect((await before.getPost("hindi", "गुप्त-दोहा"))?.content).toContain("सदस्यों");
    } finally {
      await before.close();
    }
    const result = await sukti(url, "import", FIXTURE);
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toContain("posts: 0 created, 1 updated, 13 unchanged");
    const after = await openServedStore(url);
    try {
      expect(await after.getPost("hindi", "गुप्त-दोहा")).toBeNull();
      expect((await after.searchPosts("सदस्यों", 1, 10)).posts).toEqual([]);
    } finally {
      await after.close();
    }
  },
  SLOW,
);

test(
  "a record that truly cannot be read still rejects the file, naming it; nothing is written",
  async () => {
    const url = `file:${path.join(dir, "rejected.db")}`;
    const broken = variant("broken.xml", (text) =>
      text.replace(
        "<wp:post_date><![CDATA[2024-03-15 10:00:00]]></wp:post_date>\n\t\t<wp:post_date_gmt><![CDATA[2024-03-15 04:30:00]]>",
        "<wp:post_date><![CDATA[0000-00-00 00:00:00]]></wp:post_date>\n\t\t<wp:post_date_gmt><![CDATA[0000-00-00 00:00:00]]>",
      ),
    );
    expect(readFileSync(broken, "utf8")).not.toBe(readFileSync(FIXTURE, "utf8"));
    const result = await sukti(url, "import", broken);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain("item 24 (wp:post_id 33)");
    expect(result.stderr).toContain("postTime: wp:post_date_gmt and wp:post_date are both empty or zero");
    expect(result.stderr).toContain("the database was not changed");
  },
  SLOW,
);

test(
  "JSON records too: a blank title is made from the content; blank and empty is skipped, said in the report",
  async () => {
    const url = `file:${path.join(dir, "json.db")}`;
    const file = path.join(dir, "untitled.ndjson");
    const record = (idNum: number, title: string, content: string) =>
      JSON.stringify({
        idNum,
        language: "mr",
        status: "publish",
        postTime: 1_700_000_000 + idNum,
        title,
        slug: `p${idNum}`,
        content,
      });
    writeFileSync(
      file,
      [record(1, "", "<p>विठ्ठल विठ्ठल 🙏🏽</p>"), record(2, "  ", "<p></p>"), record(3, "नाव", "")].join("\n"),
    );
    const result = await sukti(url, "import", file);
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toContain("posts: 2 created");
    expect(result.stdout).toContain(
      "skipped: 1 (1 untitled, and no words in its content to make a title of)",
    );
    expect(result.stdout).toContain('  line 1 [marathi "p1"]: "विठ्ठल विठ्ठल 🙏🏽"');
  },
  SLOW,
);

const available = postgresAvailable();

describe.skipIf(!available)("on PostgreSQL", () => {
  let postgres: TestPostgres;
  beforeAll(async () => {
    postgres = await sharedPostgres();
  });
  afterAll(async () => {
    await postgres?.stop();
  });

  test(
    "the same export gives the same posts, titles, content and report",
    async () => {
      const url = await postgres.createDatabase("real_world_wxr");
      const result = await sukti(url, "import", FIXTURE, "--source-field", "author");
      expect(result.status, result.stderr).toBe(0);
      expect(result.stdout.trimEnd().split("\n").slice(1)).toEqual(REPORT_LINES);
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        const { rows } = await client.query<Row>(
          "SELECT id_num::int AS id_num, language, status, slug, title, content, excerpt FROM posts ORDER BY id_num",
        );
        expectPosts(rows);
      } finally {
        await client.end();
      }
    },
    SLOW,
  );
});
