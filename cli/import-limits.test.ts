// Decision 043: what a record may hold, checked as the file is read. A record
// past its limits is refused in one line naming it, whatever the format,
// reading no further than needed; no message echoes a large value; bytes
// that are not text are refused, never turned into U+FFFD; control
// characters never reach a page. Real files in a temporary directory,
// `sukti import` run as a user runs it (tests/support/cli.ts).
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import {
  describeIssues,
  MAX_CONTENT_LENGTH,
  MAX_EXCERPT_LENGTH,
  MAX_IMAGE_URL_LENGTH,
  MAX_PERSON_NAME_LENGTH,
  MAX_QUOTED_LENGTH,
  MAX_RECORD_BYTES,
  MAX_SLUG_LENGTH,
  MAX_SOURCE_TEXT_LENGTH,
  MAX_TERM_NAME_LENGTH,
  MAX_TERMS,
  MAX_TITLE_LENGTH,
  MAX_TRANSLATION_KEY_LENGTH,
  PageRecordSchema,
  PostRecordSchema,
} from "#app/content/schemas.ts";
import { openDatabase } from "#app/data/sqlite/database.server.ts";
import { declaredEncoding } from "#cli/wxr/xml.ts";
import { runSukti } from "#tests/support/cli.ts";

let dir: string;
let dbPath: string;

beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), "sukti-limits-"));
  dbPath = path.join(dir, "sukti.db");
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const sukti = (...args: string[]) => runSukti(args, { DATABASE_URL: `file:${dbPath}`, SUKTI_DEBUG: "" });

function record(idNum: number, overrides: Record<string, unknown> = {}) {
  return {
    idNum,
    language: "english",
    status: "publish",
    postTime: 1_700_000_000 + idNum,
    title: `Quote ${idNum}`,
    slug: `quote-${idNum}`,
    content: `<p>Quote ${idNum}</p>`,
    ...overrides,
  };
}

function write(name: string, content: string | Buffer): string {
  const file = path.join(dir, name);
  writeFileSync(file, content);
  return file;
}

const ndjson = (records: unknown[]) => records.map((r) => JSON.stringify(r)).join("\n");

function wxr(items: string, declaration = '<?xml version="1.0" encoding="UTF-8"?>'): string {
  return `${declaration}
<rss version="2.0" xmlns:content="http://purl.org/rss/1.0/modules/content/" xmlns:wp="http://wordpress.org/export/1.2/">
<channel>
<language>en-US</language>
<wp:wxr_version>1.2</wp:wxr_version>
${items}</channel>
</rss>
`;
}

function wxrItem(id: number, title: string, content: string): string {
  return `<item>
<title>${title}</title>
<content:encoded><![CDATA[${content}]]></content:encoded>
<wp:post_id>${id}</wp:post_id>
<wp:post_date_gmt>2024-01-0${id} 10:00:00</wp:post_date_gmt>
<wp:post_name>wxr-${id}</wp:post_name>
<wp:status>publish</wp:status>
<wp:post_type>post</wp:post_type>
</item>
`;
}

/** Every row and the file's bytes: what "the database was not changed" compares. */
function snapshot() {
  const { db } = openDatabase(`file:${dbPath}`);
  try {
    const rows = {
      posts: db.prepare("SELECT * FROM posts ORDER BY id").all(),
      terms: db.prepare("SELECT * FROM terms ORDER BY id").all(),
      people: db.prepare("SELECT * FROM people ORDER BY id").all(),
    };
    return rows;
  } finally {
    db.close();
  }
}
const fileHash = () => createHash("sha256").update(readFileSync(dbPath)).digest("hex");

/** A database holding two posts, and its state, before a rejected import. */
async function seeded() {
  const first = await sukti("import", write("first.ndjson", ndjson([record(1), record(2)])));
  expect(first.status, first.stderr).toBe(0);
  return { rows: snapshot(), hash: fileHash() };
}

describe("a 30 MB record is refused in each format, naming it, and nothing changes", () => {
  const huge = "x".repeat(30 * 1024 * 1024);
  const cases: [string, () => string, RegExp][] = [
    [
      "json",
      () =>
        write("big.json", JSON.stringify({ posts: [record(3), record(4, { content: `<p>${huge}</p>` })] })),
      /posts\[1\] \(line 1\): the record is larger than 1 MiB/,
    ],
    [
      "ndjson",
      () => write("big.ndjson", ndjson([record(3), record(4, { content: `<p>${huge}</p>` }), record(5)])),
      /line 2: the record is larger than 1 MiB/,
    ],
    [
      "wxr",
      () => write("big.xml", wxr(wxrItem(3, "Small", "<p>small</p>") + wxrItem(4, "Big", `<p>${huge}</p>`))),
      /item 2 \(line 15\): larger than 1 MiB/,
    ],
  ];
  test.each(cases)("%s", async (_format, make, message) => {
    const before = await seeded();
    const result = await sukti("import", make());
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(message);
    expect(result.stderr).toMatch(/the database was not changed\n$/);
    expect(result.stderr.split("\n").filter(Boolean)).toHaveLength(1);
    expect(result.stderr.length).toBeLessThan(400);
    expect(snapshot()).toEqual(before.rows);
    expect(fileHash()).toBe(before.hash);
  });
});

describe("a 200 MB record is refused by a process with a 128 MB heap: memory follows the record limit, not the file", () => {
  const ROOT = path.resolve(import.meta.dirname, "..");
  /** `head`, 200 MB of "x", `tail`, written a MiB at a time (the test never holds the file). */
  function hugeFile(name: string, head: string, tail: string): string {
    const file = path.join(dir, name);
    const fd = openSync(file, "w");
    try {
      writeSync(fd, head);
      const block = Buffer.alloc(1024 * 1024, "x");
      for (let i = 0; i < 200; i++) writeSync(fd, block);
      writeSync(fd, tail);
    } finally {
      closeSync(fd);
    }
    return file;
  }
  const [head, tail] = JSON.stringify(record(4, { content: "HUGE" })).split("HUGE") as [string, string];
  const cases: [string, () => string, RegExp][] = [
    [
      "json",
      () => hugeFile("huge.json", `[${JSON.stringify(record(3))},\n${head}`, `${tail}]`),
      /\[1\] \(line 2\): the record is larger than 1 MiB/,
    ],
    [
      "ndjson",
      () => hugeFile("huge.ndjson", `${JSON.stringify(record(3))}\n${head}`, `${tail}\n`),
      /line 2: the record is larger than 1 MiB/,
    ],
    [
      "wxr",
      () => {
        const [before, after] = wxr(wxrItem(3, "Small", "<p>small</p>") + wxrItem(4, "Huge", "HUGE")).split(
          "HUGE",
        ) as [string, string];
        return hugeFile("huge.xml", before, after);
      },
      /item 2 \(line 15\): larger than 1 MiB/,
    ],
  ];
  test.each(cases)(
    "%s",
    (_format, make, message) => {
      const file = make();
      const result = spawnSync(
        process.execPath,
        ["--max-old-space-size=128", path.join(ROOT, "bin/sukti.js"), "import", file],
        {
          cwd: dir,
          env: { ...process.env, DATABASE_URL: `file:${dbPath}`, SUKTI_DEBUG: "" },
          encoding: "utf8",
        },
      );
      rmSync(file);
      expect(result.stderr).toMatch(message);
      expect(result.status).toBe(1);
      expect(result.stderr.split("\n").filter(Boolean)).toHaveLength(1);
    },
    120_000,
  );
});

test("a record just under the limit imports: an essay-length post fits", async () => {
  const essay = `<p>${"ज्ञान की बात ".repeat(20_000)}</p>`; // 240,000 characters, 0.6 MB of UTF-8
  expect(essay.length).toBeLessThanOrEqual(MAX_CONTENT_LENGTH);
  const result = await sukti("import", write("essay.ndjson", ndjson([record(1, { content: essay })])));
  expect(result.status, result.stderr).toBe(0);
});

test("a 200 MB key is refused without reading it whole, and never echoed", async () => {
  const file = path.join(dir, "key.json");
  writeFileSync(file, `{"${"k".repeat(20 * 1024 * 1024)}": []}`);
  const result = await sukti("import", file);
  expect(result.status).toBe(1);
  expect(result.stderr).toMatch(/invalid JSON at line 1: unknown key "k{10,80}…"/);
  expect(result.stderr.length).toBeLessThan(300);
});

test("unknown keys and bad values in a record are quoted cut to 80 characters", async () => {
  const long = "ज".repeat(100_000); // 300 KB a value: each record stays under 1 MiB
  const result = await sukti(
    "import",
    write(
      "bad.ndjson",
      ndjson([
        record(1, { source: { person: "Kabir", [long]: 1 } }),
        record(2, { language: long }),
        record(3, { status: long }),
        record(4, { slug: "x".repeat(300_000) }),
        record(5, { featureImageUrl: `javascript:${"a".repeat(1000)}` }),
      ]),
    ),
  );
  expect(result.status).toBe(1);
  const lines = result.stderr.trim().split("\n");
  expect(lines).toHaveLength(6);
  expect(lines[0]).toMatch(/^error: line 1 \[idNum 1, slug "quote-1"\]: source: unknown key "ज{80}…"$/);
  expect(lines[1]).toContain(`language: unknown language "${"ज".repeat(MAX_QUOTED_LENGTH)}…"`);
  expect(lines[2]).toContain(`status: unknown status "${"ज".repeat(MAX_QUOTED_LENGTH)}…"`);
  expect(lines[3]).toMatch(/slug "x{80}…"\]: slug: is longer than 200 characters/);
  for (const line of lines) expect(line.length).toBeLessThan(400);
});

describe("every field has a limit", () => {
  const base = record(1, { tags: [], categories: [] });
  const over: [string, Record<string, unknown>, string][] = [
    ["title", { title: "t".repeat(MAX_TITLE_LENGTH + 1) }, "title: is longer than 500 characters"],
    ["slug", { slug: "s".repeat(MAX_SLUG_LENGTH + 1) }, "slug: is longer than 200 characters"],
    [
      "content",
      { content: "c".repeat(MAX_CONTENT_LENGTH + 1) },
      "content: is longer than 262,144 characters",
    ],
    ["excerpt", { excerpt: "e".repeat(MAX_EXCERPT_LENGTH + 1) }, "excerpt: is longer than 10,000 characters"],
    [
      "featureImageUrl",
      { featureImageUrl: `/${"i".repeat(MAX_IMAGE_URL_LENGTH)}` },
      "featureImageUrl: is longer than 2,048 characters",
    ],
    ["a tag", { tags: ["ok", "g".repeat(MAX_TERM_NAME_LENGTH + 1)] }, "tags.1: a name is longer than 200"],
    [
      "a category",
      { categories: ["c".repeat(MAX_TERM_NAME_LENGTH + 1)] },
      "categories.0: a name is longer than 200",
    ],
    [
      "the number of tags",
      { tags: Array.from({ length: MAX_TERMS + 1 }, (_, i) => `tag ${i}`) },
      "tags: has more than 100 names",
    ],
    [
      "the number of categories",
      { categories: Array.from({ length: MAX_TERMS + 1 }, (_, i) => `category ${i}`) },
      "categories: has more than 100 names",
    ],
    [
      "translationKey",
      { translationKey: "k".repeat(MAX_TRANSLATION_KEY_LENGTH + 1) },
      "translationKey: is longer than 200 characters",
    ],
    [
      "source.work",
      { source: { work: "w".repeat(MAX_SOURCE_TEXT_LENGTH + 1) } },
      "source.work: is longer than 500 characters",
    ],
    [
      "source.reference",
      { source: { reference: "r".repeat(MAX_SOURCE_TEXT_LENGTH + 1) } },
      "source.reference: is longer than 500 characters",
    ],
    [
      "source.person.name",
      { source: { person: "p".repeat(MAX_PERSON_NAME_LENGTH + 1) } },
      "source.person.name: is longer than 200 characters",
    ],
    [
      "source.person.names",
      { source: { person: { name: "Kabir", names: { hi: "क".repeat(MAX_PERSON_NAME_LENGTH + 1) } } } },
      "source.person.names.hindi: is longer than 200 characters",
    ],
    [
      "source.person.slug",
      { source: { person: { name: "Kabir", slug: "k".repeat(MAX_SLUG_LENGTH + 1) } } },
      "source.person.slug: is longer than 200 characters",
    ],
  ];
  test.each(over)("%s: over the limit is refused, at the limit accepted", (_name, fields, message) => {
    const result = PostRecordSchema.safeParse({ ...base, ...fields }, { reportInput: true });
    expect(result.success).toBe(false);
    if (!result.success) expect(describeIssues(result.error).join("\n")).toContain(message);
  });

  test("values at every limit are accepted", () => {
    const atLimit = {
      ...base,
      title: "t".repeat(MAX_TITLE_LENGTH),
      slug: "s".repeat(MAX_SLUG_LENGTH),
      content: "c".repeat(MAX_CONTENT_LENGTH),
      excerpt: "e".repeat(MAX_EXCERPT_LENGTH),
      featureImageUrl: `/${"i".repeat(MAX_IMAGE_URL_LENGTH - 1)}`,
      tags: Array.from({ length: MAX_TERMS }, (_, i) => `${i} ${"g".repeat(MAX_TERM_NAME_LENGTH - 4)}`),
      categories: ["c".repeat(MAX_TERM_NAME_LENGTH)],
      translationKey: "k".repeat(MAX_TRANSLATION_KEY_LENGTH),
      source: {
        person: { name: "p".repeat(MAX_PERSON_NAME_LENGTH), slug: "k".repeat(MAX_SLUG_LENGTH) },
        work: "w".repeat(MAX_SOURCE_TEXT_LENGTH),
        reference: "r".repeat(MAX_SOURCE_TEXT_LENGTH),
      },
    };
    const result = PostRecordSchema.safeParse(atLimit);
    expect(result.success, result.success ? "" : describeIssues(result.error).join("\n")).toBe(true);
  });

  test("pages have the same limits on title and content", () => {
    const page = { slug: "about", title: "About", content: "<p>About</p>" };
    expect(PageRecordSchema.safeParse(page).success).toBe(true);
    expect(PageRecordSchema.safeParse({ ...page, title: "t".repeat(MAX_TITLE_LENGTH + 1) }).success).toBe(
      false,
    );
    expect(PageRecordSchema.safeParse({ ...page, content: "c".repeat(MAX_CONTENT_LENGTH + 1) }).success).toBe(
      false,
    );
  });

  test("the importer names the record and the field", async () => {
    const before = await seeded();
    const result = await sukti(
      "import",
      write("long.json", JSON.stringify([record(3), record(4, { title: "t".repeat(MAX_TITLE_LENGTH + 1) })])),
    );
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(
      'error: [1] (line 1) [idNum 4, slug "quote-4"]: title: is longer than 500',
    );
    expect(snapshot()).toEqual(before.rows);
  });

  test("the whole record is limited too, in bytes", () => {
    expect(MAX_RECORD_BYTES).toBe(1024 * 1024);
  });
});

describe("bytes that are not UTF-8 are refused, naming the line and the record", () => {
  const latin1 = (text: string) => Buffer.from(text, "latin1");
  test("JSON", async () => {
    const before = await seeded();
    const text = `[\n${JSON.stringify(record(3))},\n${JSON.stringify(record(4, { title: "café" }))}\n]`;
    const result = await sukti("import", write("latin1.json", latin1(text)));
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/rejected: \[1\] \(line 3\): invalid UTF-8 at line 3: byte 0xE9/);
    expect(snapshot()).toEqual(before.rows);
    expect(fileHash()).toBe(before.hash);
  });

  test("NDJSON", async () => {
    const before = await seeded();
    const text = ndjson([record(3), record(4, { title: "café" })]);
    const result = await sukti("import", write("latin1.ndjson", latin1(text)));
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/error: line 2: invalid UTF-8 at byte \d+ of the line: byte 0xE9/);
    expect(snapshot()).toEqual(before.rows);
  });

  test("WXR without a declared encoding, and a UTF-8 character cut by the file's end", async () => {
    const before = await seeded();
    const text = wxr(wxrItem(3, "Small", "<p>small</p>") + wxrItem(4, "café", "<p>x</p>"), "");
    const result = await sukti("import", write("latin1.xml", latin1(text)));
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/rejected: item 2 \(line 15\): invalid UTF-8 at line 16: byte 0xE9/);
    const cut = Buffer.concat([
      Buffer.from(wxr(wxrItem(3, "Small", "<p>small</p>"))),
      Buffer.from([0xe0, 0xa4]),
    ]);
    const atEnd = await sukti("import", write("cut.xml", cut));
    expect(atEnd.stderr).toMatch(/invalid UTF-8 at line 1\d: the file ends inside a character/);
    expect(snapshot()).toEqual(before.rows);
  });
});

describe("a WXR file's declared encoding is honoured", () => {
  test("ISO-8859-1 (and its aliases) reads café as café", async () => {
    for (const [i, name] of ["ISO-8859-1", "latin1", "windows-1252"].entries()) {
      const text = wxr(
        wxrItem(i + 1, "Café crème", "<p>Déjà vu — naïve</p>"),
        `<?xml version="1.0" encoding="${name}"?>`,
      ).replace("—", "-");
      const result = await sukti("import", write(`latin1-${i}.xml`, Buffer.from(text, "latin1")));
      expect(result.status, result.stderr).toBe(0);
    }
    const titles = snapshot().posts.map((post) => [
      (post as { title: string }).title,
      (post as { content: string }).content,
    ]);
    expect(titles).toEqual([
      ["Café crème", "<p>Déjà vu - naïve</p>"],
      ["Café crème", "<p>Déjà vu - naïve</p>"],
      ["Café crème", "<p>Déjà vu - naïve</p>"],
    ]);
  });

  test("the declaration is read from the first bytes; a UTF-8 byte order mark wins", () => {
    const declared = (text: string) => declaredEncoding(Buffer.from(text, "latin1"));
    expect(declared('<?xml version="1.0" encoding="ISO-8859-1"?>')).toBe("windows-1252");
    expect(declared("<?xml version='1.0' encoding='Latin1' standalone='yes'?>")).toBe("windows-1252");
    expect(declared('<?xml version="1.0" encoding="utf-8"?>')).toBe("utf-8");
    expect(declared('<?xml version="1.0"?>')).toBe("utf-8");
    expect(declared("<rss>")).toBe("utf-8");
    expect(declared('\xEF\xBB\xBF<?xml version="1.0" encoding="ISO-8859-1"?>')).toBe("utf-8");
    expect(() => declared("\xFF\xFE<\x00?\x00")).toThrow("UTF-16");
  });

  test("an encoding sukti cannot read is refused in one line", async () => {
    const result = await sukti(
      "import",
      write("ebcdic.xml", wxr(wxrItem(1, "A", "<p>a</p>"), '<?xml version="1.0" encoding="EBCDIC-CP-US"?>')),
    );
    expect(result.status).toBe(1);
    expect(result.stderr).toBe(
      'sukti: ebcdic.xml was rejected: the file declares encoding "EBCDIC-CP-US", which sukti does not read: export it as UTF-8 (ISO-8859-1 and windows-1252 are read too); the database was not changed\n',
    );
  });
});

test("control characters are stripped from every text of a record, its HTML included", async () => {
  const bad = "\u0000\u0007\u001b\u007f\u0085";
  const result = await sukti(
    "import",
    write(
      "control.ndjson",
      ndjson([
        record(1, {
          title: `Nul${bad} in title`,
          slug: `nul${bad}-slug`,
          content: `<p>Body${bad} &#1;&#x7f; text</p>`,
          excerpt: `Excerpt${bad}`,
          tags: [`Tag${bad}`],
          categories: [`Category${bad}`],
          translationKey: `key${bad}`,
          source: { person: `Kabir${bad}`, work: `Work${bad}`, reference: `Ref${bad}` },
        }),
      ]),
    ),
  );
  expect(result.status, result.stderr).toBe(0);
  const { posts, terms, people } = snapshot();
  expect(posts).toEqual([
    expect.objectContaining({
      title: "Nul in title",
      slug: "nul-slug",
      content: "<p>Body  text</p>",
      excerpt: "Excerpt",
      translation_key: "key",
      work: "Work",
      reference: "Ref",
    }),
  ]);
  expect(terms.map((term) => (term as { name: string }).name).sort()).toEqual(["Category", "Tag"]);
  expect(people).toEqual([expect.objectContaining({ name_english: "Kabir" })]);
  // Nothing stored holds a control character.
  const texts = [...posts, ...terms, ...people].flatMap((row) =>
    Object.values(row as object).filter((value) => typeof value === "string"),
  );
  // biome-ignore lint/suspicious/noControlCharactersInRegex: looking for control characters
  for (const text of texts) expect(text).not.toMatch(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/);
});
