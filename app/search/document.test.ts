import { expect, test } from "vitest";
import { htmlToPlainText } from "#app/content/html-text.ts";
import { seededRandom } from "#app/content/sampling.ts";
import { readDemoContent } from "#app/data/demo.server.ts";
import { sanitizePostHtml } from "#app/data/sanitize.server.ts";
import { migrate, openDatabase } from "#app/data/sqlite/database.server.ts";
import { writeContent } from "#app/data/sqlite/transaction.server.ts";
import {
  searchBody,
  searchDocument,
  searchText,
  termWords,
  wordSkeletons,
  wordTrigrams,
} from "#app/search/document.ts";
import { distinctWords, foldText } from "#app/search/fold.ts";
import { highlight, wordTest } from "#app/search/highlight.ts";
import { bodyMayMatch } from "#app/search/hits.ts";
import { generateCorpus } from "#cli/generate.ts";

// The document computed in code must be what the search migration computed
// with sukti_fold, sukti_plain and sukti_words (its search_source view, since
// dropped), which indexed every existing database: a database indexed by that
// migration and one written by our code then hold the same index, and both
// stores index alike.
test("searchDocument matches what the search migration computed, and the vocabulary what the writer stored", () => {
  const { db } = openDatabase(":memory:");
  migrate(db);
  const demo = readDemoContent();
  const extra = {
    language: "hindi" as const,
    idNum: 900,
    status: "publish" as const,
    postTime: 1_700_000_000,
    title: "!!!",
    slug: "empty-title",
    featureImageUrl: "",
    content: "",
    excerpt: "",
    tags: ["Café", "café", "ज़िंदगी"],
    categories: ["शान्ति"],
  };
  writeContent(db, { posts: [...demo.posts, extra], pages: [] });
  // The search_source view of db/migrations/20261122010000_search.sql (migrate registered the functions).
  const rows = db
    .prepare(
      `SELECT p.id, sukti_fold(p.title) AS title,
         sukti_fold(coalesce((SELECT group_concat(t.name, ' ') FROM post_terms pt JOIN terms t ON t.id = pt.term_id
           WHERE pt.post_id = p.id), '')) AS tags,
         sukti_fold(sukti_plain(p.content) || ' ' || p.excerpt) AS body
       FROM posts p WHERE p.status = 'publish' ORDER BY p.id`,
    )
    .all() as {
    id: number;
    title: string;
    tags: string;
    body: string;
  }[];
  expect(rows.length).toBeGreaterThan(100);
  const records = [...demo.posts, extra].filter((post) => post.status === "publish");
  const allWords = new Set<string>();
  for (const record of [...demo.posts, extra]) {
    for (const name of [...record.tags, ...record.categories])
      for (const word of termWords(name)) allWords.add(word);
  }
  for (const row of rows) {
    const stored = db
      .prepare("SELECT language, slug, title, content, excerpt FROM posts WHERE id = ?")
      .get(row.id) as { language: string; slug: string; title: string; content: string; excerpt: string };
    const names = db
      .prepare("SELECT t.name FROM post_terms pt JOIN terms t ON t.id = pt.term_id WHERE pt.post_id = ?")
      .pluck()
      .all(row.id) as string[];
    const record = records.find((post) => post.language === stored.language && post.slug === stored.slug)!;
    expect(stored.content).toBe(sanitizePostHtml(record.content));
    const doc = searchDocument({
      title: stored.title,
      content: stored.content,
      excerpt: stored.excerpt,
      termNames: names,
    });
    // Word order within the tags does not matter to the index; compare as sets.
    expect({ title: doc.title, body: doc.body }).toEqual({ title: row.title, body: row.body });
    expect(new Set(doc.tags.split(" "))).toEqual(new Set(row.tags.split(" ")));
    const sqliteWords = JSON.parse(
      db.prepare("SELECT sukti_words(? || ' ' || ?)").pluck().get(row.title, row.body) as string,
    );
    expect(doc.words).toEqual(sqliteWords);
    for (const word of doc.words) allWords.add(word);
    // What the writer stored: the same document, with the post's source (every name of its person, work, reference) among the tags.
    const source = db
      .prepare(
        `SELECT pe.name_english, pe.name_hindi, pe.name_marathi, p.work, p.reference
         FROM posts p LEFT JOIN people pe ON pe.id = p.person_id WHERE p.id = ?`,
      )
      .get(row.id) as Record<string, string | null>;
    const withSource = searchDocument({
      title: stored.title,
      content: stored.content,
      excerpt: stored.excerpt,
      termNames: names,
      source: [...new Set(Object.values(source).filter((text): text is string => !!text))],
    });
    const document = db
      .prepare("SELECT title, tags, body FROM search_documents WHERE post_id = ?")
      .get(row.id) as { title: string; tags: string; body: string };
    expect({ title: withSource.title, body: withSource.body }).toEqual({
      title: document.title,
      body: document.body,
    });
    expect(new Set(withSource.tags.split(" "))).toEqual(new Set(document.tags.split(" ")));
    for (const word of withSource.words) allWords.add(word);
  }
  // The vocabulary: every word of published posts and of every term name, nothing else.
  const vocabulary = db.prepare("SELECT word FROM search_words").pluck().all() as string[];
  expect(new Set(vocabulary)).toEqual(allWords);
  // Skeletons: what the writer stored for each Devanagari word, as the migration's sukti_skeletons.
  const skeletons = db
    .prepare(
      "SELECT w.word, json_group_array(s.skeleton) AS list FROM search_words w JOIN search_skeletons s ON s.word_id = w.id GROUP BY w.id",
    )
    .all() as { word: string; list: string }[];
  expect(skeletons.length).toBeGreaterThan(100);
  for (const { word, list } of skeletons) {
    const computed = JSON.parse(db.prepare("SELECT sukti_skeletons(?)").pluck().get(word) as string);
    expect(new Set(wordSkeletons(word))).toEqual(new Set(JSON.parse(list)));
    expect(new Set(JSON.parse(list))).toEqual(new Set(computed));
  }
  expect(wordSkeletons("love")).toEqual([]);
  db.close();
});

test("trigrams are code point triples, as FTS5's trigram tokenizer splits words", () => {
  expect(wordTrigrams("ज्ञान")).toEqual(["ज्ञ", "्ञा", "ञान"]);
  expect(wordTrigrams("मन")).toEqual([]);
  expect(wordTrigrams("aaaa")).toEqual(["aaa"]);
});

// An import folds a post's text on its reading thread (searchText) and the
// writer adds the source's words: the document must be the one made in one go.
test("a document made from prepared text is the document made in one go", () => {
  const demo = readDemoContent();
  const sources = [["Kabir", "kabir", "Bijak", "Sakhi 1"], ["कबीर", "दास"], [], ["Love love", "love"]];
  let withSource = 0;
  for (const [i, post] of demo.posts.entries()) {
    const html = sanitizePostHtml(post.content);
    const source = sources[i % sources.length] ?? [];
    const whole = searchDocument({ ...post, content: html, termNames: post.tags, source });
    const prepared = searchDocument({
      ...post,
      content: html,
      termNames: post.tags,
      source,
      text: searchText(post.title, html, post.excerpt),
    });
    expect(prepared).toEqual(whole);
    // The words of title, body and source, each once, in order of first use.
    const origin = foldText(source.join(" "));
    expect(whole.words).toEqual(
      distinctWords(
        origin === "" ? `${whole.title} ${whole.body}` : `${whole.title} ${whole.body} ${origin}`,
      ),
    );
    if (source.length > 0 && whole.words.length > searchText(post.title, html, post.excerpt).words.length)
      withSource++;
  }
  // The sources added words to some documents, so the merge was exercised.
  expect(withSource).toBeGreaterThan(10);
});

// searchBody splits the markup's text as it stands (htmlToWordText) instead of
// tidying its lines first (htmlToPlainText): the folded words must not change.
/**
 * A word the snippet's test is asked about in `html`'s text (highlight.ts:
 * its words as a reader sees them, each folded) that its indexed body would
 * not let pass (bodyMayMatch with a test passing that word alone), or null:
 * a post whose body lets no word pass holds no word the snippet would mark
 * (hits.ts noMatchIn).
 */
function wordMissingFromBody(html: string, excerpt: string): string | null {
  const body = searchBody(html, excerpt);
  const asked: string[] = [];
  highlight(
    htmlToPlainText(html),
    wordTest((word) => {
      asked.push(word);
      return false;
    }),
  );
  return asked.find((word) => !bodyMayMatch(body, (folded) => folded === word)) ?? null;
}

test("the body's words are those of the markup's tidied text", () => {
  const tidied = (html: string, excerpt: string) => foldText(`${htmlToPlainText(html)} ${excerpt}`);
  const markups = [
    ...readDemoContent().posts.map((post) => sanitizePostHtml(post.content)),
    ...generateCorpus({ count: 300 }).map((post) => sanitizePostHtml(post.content)),
  ];
  for (const html of markups) expect(searchBody(html, "an excerpt")).toBe(tidied(html, "an excerpt"));
  // Markup made of the pieces where white space, entities and tags meet Devanagari signs, apostrophes and ends.
  const pieces = [
    " ",
    "\n",
    "\t",
    "\r\n",
    "\u00a0",
    "\u2028",
    "&nbsp;",
    "&#10;",
    "&#9;",
    "&amp;",
    "&lt;",
    "&#x915;",
    "<p>",
    "</p>",
    "<br>",
    "<br />",
    "<em>",
    "</em>",
    "<li>",
    "</li>",
    "<hr>",
    "न्",
    "क",
    "ि",
    "्",
    "ं",
    "ः",
    "ज़",
    "१",
    "।",
    "॥",
    "॰",
    "ङ्",
    "म्",
    "ण्",
    "प",
    "\u0301",
    "\u200d",
    "don",
    "'",
    "’",
    "t",
    "Café",
    "A",
  ];
  const random = seededRandom(88);
  for (let i = 0; i < 20_000; i++) {
    let html = "";
    const length = Math.floor(random() * 14);
    for (let j = 0; j < length; j++) html += pieces[Math.floor(random() * pieces.length)];
    const excerpt = random() < 0.5 ? "" : (pieces[Math.floor(random() * pieces.length)] ?? "");
    expect(searchBody(html, excerpt), JSON.stringify(html)).toBe(tidied(html, excerpt));
    expect(wordMissingFromBody(html, excerpt), JSON.stringify(html)).toBeNull();
  }
  for (const html of markups) expect(wordMissingFromBody(html, "")).toBeNull();
  // The test is asked about words (else this compares nothing).
  expect(wordMissingFromBody("<p>Don’t ज़िंदगी café</p>", "")).toBeNull();
  expect(wordMissingFromBody("<p>love</p>", "")).toBeNull();
});
