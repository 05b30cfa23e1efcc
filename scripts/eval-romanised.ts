// `npm run eval:romanised`: how well romanised search finds Hindi and Marathi
// words, measured on attested human romanisations (tests/fixtures/romanised/,
// see SOURCE.md there). Two measures, each through the real store's
// searchPosts(text, 1, 24), 24 being the site's first results page:
//
// 1. Demo words: a temporary SQLite database seeded exactly as the server
//    does (openServedStore on a missing file); the fixtures {language}.{tune,
//    heldout}.tsv hold romanisations of words of the demo content.
// 2. Large vocabulary: a temporary SQLite database, migrated, whose published
//    posts (written by the project's writer, writeContent) hold every word of
//    {language}.large.{tune,heldout}.tsv, a few thousand words per language
//    sampled from the whole lexicon, 15–25 words a post, Hindi and Marathi
//    posts side by side. Far more words compete for each query than on the
//    demo site.
//
// A row is a hit when a post on that page has the row's Devanagari word as a
// whole word in its title, text (HTML stripped) or source (the person's names
// and the work, shown on the hit); words compared as search folds them, so
// हिंदी and हिन्दी are one word. Prints recall per language and
// part (tune, held-out), the failing rows grouped by a rough kind, and
// precision probes: what nonsense and English queries bring back. It reports;
// it does not judge: the exit code is 0 whatever the numbers. `-- demo` or
// `-- large` runs one of the two measures.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { htmlToPlainText } from "#app/content/html-text.ts";
import type { Language } from "#app/content/languages.ts";
import type { SearchResultPage } from "#app/content/model.ts";
import { seededRandom } from "#app/content/sampling.ts";
import type { PostRecord } from "#app/content/schemas.ts";
import { openServedStore } from "#app/data/open-store.server.ts";
import { projectRoot } from "#app/data/project-root.server.ts";
import { migrate, openDatabase } from "#app/data/sqlite/database.server.ts";
import { SqliteContentStore } from "#app/data/sqlite/reads.server.ts";
import { writeContent } from "#app/data/sqlite/transaction.server.ts";
import { foldWords } from "#app/search/fold.ts";
import { MIN_NEAR_SKELETON, nearQuerySkeletons } from "#app/search/near.ts";
import {
  devanagariSkeletons,
  latinSkeleton,
  MIN_ROMAN_LETTERS,
  MIN_ROMAN_PREFIX,
  querySkeletons,
} from "#app/search/roman.ts";

/** The site's first results page. */
const FIRST_PAGE = 24;
const EXAMPLES_PER_KIND = 15;
const FIXTURE_LANGUAGES = ["hindi", "marathi"] as const satisfies readonly Language[];
const PARTS = [
  ["tune", "tune"],
  ["heldout", "held-out"],
] as const;
const PROBES = [
  ...["zzzz", "qqqq", "kkkk", "xyxy", "a", "the", "man", "god", "hmm"],
  // Keyboard runs and English words no post holds: what reading a word one letter off lets in.
  ...[
    "asdfgh",
    "qwerty",
    "zxcvbnm",
    "lkjhgf",
    "poiuyt",
    "keyboard",
    "elephant",
    "blockchain",
    "javascript",
    "pizza",
  ],
];
/** The large-vocabulary site: words per post, and the seed of the shuffle that fills the posts. */
const WORDS_PER_POST = [15, 25] as const;
const LARGE_SEED = 14;

interface Row {
  devanagari: string;
  /** The Devanagari word as search folds it. */
  folded: string;
  romanised: string;
  count: number;
}

const KINDS = [
  "short word (≤2 letters)",
  "skeletons already match (lookup or ranking)",
  "ऋ",
  "h moved/vanished",
  "nasal",
  "doubled consonant/cluster",
  "ending",
  "other",
] as const;
type Kind = (typeof KINDS)[number];

function fixturePath(name: string): string {
  return path.join(projectRoot(), "tests", "fixtures", "romanised", name);
}

function readFixture(file: string): Row[] {
  const rows: Row[] = [];
  const lines = readFileSync(file, "utf8").split("\n");
  for (const [i, line] of lines.entries()) {
    if (i === 0 || line.trim() === "") continue;
    const [devanagari = "", romanised = "", count = "1"] = line.split("\t");
    const folded = foldWords(devanagari)[0];
    if (!folded || romanised === "") continue;
    rows.push({ devanagari, folded, romanised, count: Number(count) || 1 });
  }
  return rows;
}

/** Whether skeleton `b` matches query skeleton `a` after `f`: equal, or (3+ letters) a prefix. */
function matchesAfter(f: (s: string) => string, query: string, skeletons: readonly string[]): boolean {
  const q = f(query);
  return q !== "" && skeletons.some((s) => f(s) === q || (q.length >= 3 && f(s).startsWith(q)));
}

function commonPrefix(a: string, b: string): number {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return i;
}

/** A rough reason why `row.romanised` missed its word, from the skeletons the search compares. */
function kindOf(row: Row, query: string, skeletons: readonly string[]): Kind {
  // Short: fewer Latin letters than skeletons are compared for, or a Devanagari word of at most 2 code points.
  const letters = row.romanised.replace(/[^a-z]/gi, "").length;
  if (letters < MIN_ROMAN_LETTERS || Array.from(row.folded).length <= 2) return "short word (≤2 letters)";
  // The search's own rule would match: the word was lost later (not indexed, over an expansion cap, off the page).
  if (matchesAfter((s) => s, query, skeletons)) return "skeletons already match (lookup or ranking)";
  if (/[ऋॠ\u0943\u0944]/.test(row.folded)) return "ऋ";
  if (matchesAfter((s) => s.replace(/h/g, ""), query, skeletons)) return "h moved/vanished";
  if (matchesAfter((s) => s.replace(/[nm](?![aeiou])/g, ""), query, skeletons)) return "nasal";
  const endingOnly = skeletons.some((s) => {
    const shared = commonPrefix(query, s);
    return shared >= 3 && query.length - shared <= 2 && s.length - shared <= 2;
  });
  if (endingOnly) return "ending";
  if (row.folded.includes("\u094D") || /([^aeiou])\1/.test(row.romanised)) return "doubled consonant/cluster";
  return "other";
}

function percent(part: number, whole: number): string {
  return whole === 0 ? "  n/a" : `${((100 * part) / whole).toFixed(1).padStart(5)}%`;
}

/** What one measure needs from its site: a search, and the folded words of a post. */
interface Site {
  search(text: string): Promise<SearchResultPage>;
  wordsOf(language: Language, slug: string, title: string): Promise<Set<string>>;
}

/** A site whose searches (first page) and post words are each computed once. */
function cachedSite(
  searchPosts: (text: string, page: number, perPage: number) => Promise<SearchResultPage>,
  readWords: (language: Language, slug: string, title: string) => Promise<Set<string>>,
): Site & { queries(): number } {
  const searches = new Map<string, Promise<SearchResultPage>>();
  const postWords = new Map<string, Promise<Set<string>>>();
  return {
    search(text) {
      let result = searches.get(text);
      if (!result) {
        result = searchPosts(text, 1, FIRST_PAGE);
        searches.set(text, result);
      }
      return result;
    },
    wordsOf(language, slug, title) {
      const key = `${language}/${slug}`;
      let words = postWords.get(key);
      if (!words) {
        words = readWords(language, slug, title);
        postWords.set(key, words);
      }
      return words;
    },
    queries: () => searches.size,
  };
}

/** Recall of `rows` on `site`: prints the failures by kind and returns the summary line. */
async function measure(site: Site, name: string, label: string, rows: readonly Row[]): Promise<string> {
  const failures = new Map<Kind, string[]>(KINDS.map((kind) => [kind, []]));
  let hits = 0;
  let weight = 0;
  let weightHit = 0;
  const words = new Map<string, { top: boolean; any: boolean }>();
  for (const row of rows) {
    const result = await site.search(row.romanised);
    let found = false;
    for (const post of result.posts) {
      if ((await site.wordsOf(post.language, post.slug, post.title)).has(row.folded)) {
        found = true;
        break;
      }
    }
    weight += row.count;
    const word = words.get(row.devanagari);
    // Rows of a word come most frequent first: the first is its top spelling.
    if (!word) words.set(row.devanagari, { top: found, any: found });
    else word.any ||= found;
    if (found) {
      hits++;
      weightHit += row.count;
      continue;
    }
    const query = latinSkeleton(row.romanised);
    const skeletons = devanagariSkeletons(row.folded);
    const kind = kindOf(row, query, skeletons);
    failures
      .get(kind)!
      .push(
        `${row.devanagari} ← ${row.romanised} (×${row.count}; query skeleton "${query}", word skeletons ${skeletons.map((s) => `"${s}"`).join(" ") || "none"}; ${result.total} results)`,
      );
  }
  const wordList = [...words.values()];
  const line = `${name.padEnd(16)} ${label.padEnd(9)} rows ${String(rows.length).padStart(4)}  recall ${percent(hits, rows.length)}  count-weighted ${percent(weightHit, weight)}  words ${String(wordList.length).padStart(4)}: top spelling found ${percent(wordList.filter((w) => w.top).length, wordList.length)}, some spelling found ${percent(wordList.filter((w) => w.any).length, wordList.length)}`;
  console.log(`== ${line}`);
  for (const kind of KINDS) {
    const examples = failures.get(kind)!;
    if (examples.length === 0) continue;
    console.log(`  ${kind}: ${examples.length} failing`);
    for (const example of examples.slice(0, EXAMPLES_PER_KIND)) console.log(`    ${example}`);
    if (examples.length > EXAMPLES_PER_KIND) console.log(`    … ${examples.length - EXAMPLES_PER_KIND} more`);
  }
  console.log("");
  return line;
}

/** A sorted list of every skeleton of the vocabulary's words, to count the words a query skeleton finds. */
function skeletonIndex(words: readonly string[]): [string, string][] {
  const entries: [string, string][] = [];
  for (const word of words) for (const skeleton of devanagariSkeletons(word)) entries.push([skeleton, word]);
  return entries.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
}

function lowerBound(entries: readonly [string, string][], key: string): number {
  let low = 0;
  let high = entries.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if (entries[mid]![0] < key) low = mid + 1;
    else high = mid;
  }
  return low;
}

/** The cost side of recall: skeletons per query word, and vocabulary words each query matches by skeleton. */
function costOf(
  name: string,
  label: string,
  rows: readonly Row[],
  index: readonly [string, string][],
): string {
  const skeletonCounts: number[] = [];
  const matched: number[] = [];
  const near: number[] = [];
  for (const row of rows) {
    const skeletons = querySkeletons(row.romanised);
    skeletonCounts.push(skeletons.length);
    const words = new Set<string>();
    for (const skeleton of skeletons) {
      const from = lowerBound(index, skeleton);
      for (let i = from; i < index.length; i++) {
        const [found, word] = index[i]!;
        if (found !== skeleton && !(skeleton.length >= MIN_ROMAN_PREFIX && found.startsWith(skeleton))) break;
        words.add(word);
      }
    }
    // As search does when a word matches nothing (app/search/expand.ts, readNear): its skeletons one letter off.
    if (words.size === 0 && skeletons.some((skeleton) => skeleton.length >= MIN_NEAR_SKELETON)) {
      for (const skeleton of nearQuerySkeletons(row.romanised, skeletons)) {
        for (let i = lowerBound(index, skeleton); index[i]?.[0] === skeleton; i++) words.add(index[i]![1]);
      }
      near.push(words.size);
    }
    matched.push(words.size);
  }
  const stats = (list: number[]) => {
    const sorted = [...list].sort((a, b) => a - b);
    const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
    const mean = list.reduce((a, b) => a + b, 0) / Math.max(1, list.length);
    return `mean ${mean.toFixed(2)}, median ${at(0.5)}, p95 ${at(0.95)}, max ${sorted.at(-1) ?? 0}`;
  };
  return `${name.padEnd(16)} ${label.padEnd(9)} skeletons a query word: ${stats(skeletonCounts)}; Devanagari words matched: ${stats(matched)}; read one letter off: ${near.length} queries, words matched ${stats(near)}`;
}

async function probe(
  searchPosts: (text: string, page: number, perPage: number) => Promise<SearchResultPage>,
) {
  console.log("Precision probes (all results, by language):");
  for (const text of PROBES) {
    const result = await searchPosts(text, 1, 1000);
    const byLanguage = new Map<string, number>();
    for (const post of result.posts) byLanguage.set(post.language, (byLanguage.get(post.language) ?? 0) + 1);
    const languages = [...byLanguage.entries()].map(([name, n]) => `${name} ${n}`).join(", ");
    const sample = result.posts
      .filter((post) => post.language !== "english")
      .slice(0, 3)
      .map((post) => post.title)
      .join(" | ");
    console.log(
      `  ${JSON.stringify(text).padEnd(7)} ${String(result.total).padStart(3)} results${languages ? ` (${languages})` : ""}${sample ? `; e.g. ${sample}` : ""}`,
    );
  }
  console.log("");
}

/**
 * The large site's posts: each language's words (tune and held-out together)
 * shuffled and cut into posts of 15–25 words, the first three the title;
 * the posts of both languages interleaved in age at random.
 */
function largePosts(words: ReadonlyMap<Language, readonly string[]>): PostRecord[] {
  const next = seededRandom(LARGE_SEED);
  const posts: PostRecord[] = [];
  for (const [language, list] of words) {
    const shuffled = [...list];
    for (let i = shuffled.length - 1; i > 0; i--) {
      const j = Math.floor(next() * (i + 1));
      [shuffled[i], shuffled[j]] = [shuffled[j]!, shuffled[i]!];
    }
    for (let start = 0; start < shuffled.length; ) {
      const [low, high] = WORDS_PER_POST;
      const size = low + Math.floor(next() * (high - low + 1));
      const chunk = shuffled.slice(start, start + size);
      start += size;
      posts.push({
        idNum: 0,
        language,
        status: "publish",
        postTime: 0,
        title: chunk.slice(0, 3).join(" "),
        slug: `lexicon-${language}-${posts.length + 1}`,
        featureImageUrl: "",
        content: `<p>${chunk.slice(3).join(" ")}</p>`,
        excerpt: "",
        tags: [],
        categories: [],
        translationKey: undefined,
        source: undefined,
      });
    }
  }
  // Ages (the newest-first tie-break) drawn at random, so neither language is always newer.
  const order = posts.map((_, i) => i);
  for (let i = order.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  for (const [rank, i] of order.entries()) {
    posts[i]!.idNum = rank + 1;
    posts[i]!.postTime = 1_700_000_000 + rank * 3600;
  }
  return posts;
}

async function demoWords(dir: string, summary: string[]): Promise<number> {
  // A missing file is created, migrated and seeded with the demo content, as the server does.
  const store = await openServedStore(`file:${path.join(dir, "demo.db")}`);
  try {
    const site = cachedSite(
      (text, page, perPage) => store.searchPosts(text, page, perPage),
      (language, slug, title) =>
        store.getPost(language, slug).then((post) => {
          // The source is shown on a hit and searched with the post (decision 039): Namdev's name is there.
          const source = post?.source
            ? `${Object.values(post.source.person?.names ?? {}).join(" ")} ${post.source.work}`
            : "";
          return new Set(foldWords(`${title} ${post ? htmlToPlainText(post.content) : ""} ${source}`));
        }),
    );
    console.log("## 1. Demo words: the demo site, romanisations of its words\n");
    for (const language of FIXTURE_LANGUAGES) {
      for (const [file, label] of PARTS) {
        const rows = readFixture(fixturePath(`${language}.${file}.tsv`));
        summary.push(await measure(site, `${language} demo`, label, rows));
      }
    }
    await probe((text, page, perPage) => store.searchPosts(text, page, perPage));
    return site.queries();
  } finally {
    await store.close();
  }
}

async function largeVocabulary(dir: string, summary: string[]): Promise<number> {
  const rows = new Map<string, Row[]>();
  const words = new Map<Language, string[]>();
  for (const language of FIXTURE_LANGUAGES) {
    const all = new Set<string>();
    for (const [file] of PARTS) {
      const part = readFixture(fixturePath(`${language}.large.${file}.tsv`));
      rows.set(`${language}.${file}`, part);
      for (const row of part) all.add(row.devanagari);
    }
    words.set(language, [...all]);
  }
  const posts = largePosts(words);
  const { db } = openDatabase(`file:${path.join(dir, "large.db")}`);
  migrate(db);
  writeContent(db, { posts, pages: [] });
  const store = new SqliteContentStore(db);
  try {
    const byKey = new Map(
      posts.map((post) => [
        `${post.language}/${post.slug}`,
        new Set(foldWords(`${post.title} ${htmlToPlainText(post.content)}`)),
      ]),
    );
    const site = cachedSite(
      (text, page, perPage) => store.searchPosts(text, page, perPage),
      async (language, slug) => byKey.get(`${language}/${slug}`) ?? new Set(),
    );
    const counts = FIXTURE_LANGUAGES.map(
      (language) =>
        `${language} ${words.get(language)!.length} words in ${posts.filter((p) => p.language === language).length} posts`,
    );
    console.log(`## 2. Large vocabulary: ${counts.join(", ")}\n`);
    for (const language of FIXTURE_LANGUAGES) {
      for (const [file, label] of PARTS) {
        summary.push(await measure(site, `${language} large`, label, rows.get(`${language}.${file}`)!));
      }
    }
    const index = skeletonIndex([...words.values()].flat().map((word) => foldWords(word)[0] ?? word));
    for (const language of FIXTURE_LANGUAGES) {
      for (const [file, label] of PARTS) {
        summary.push(costOf(`${language} large`, label, rows.get(`${language}.${file}`)!, index));
      }
    }
    await probe((text, page, perPage) => store.searchPosts(text, page, perPage));
    return site.queries();
  } finally {
    await store.close();
  }
}

async function main() {
  const dir = mkdtempSync(path.join(tmpdir(), "sukti-eval-romanised-"));
  const started = Date.now();
  try {
    console.log("Romanised search recall on attested romanisations (tests/fixtures/romanised/)");
    console.log(`A hit: a post on the first results page (${FIRST_PAGE}) has the Devanagari word.\n`);
    const summary: string[] = [];
    const only = process.argv[2];
    let queries = 0;
    if (only !== "large") queries += await demoWords(dir, summary);
    if (only !== "demo") queries += await largeVocabulary(dir, summary);
    console.log("Summary:");
    for (const line of summary) console.log(`  ${line}`);
    console.log(`  (${queries} distinct queries, ${((Date.now() - started) / 1000).toFixed(1)} s)`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error("eval-romanised could not run:", error);
  process.exitCode = 0;
});
