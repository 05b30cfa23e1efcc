// `npm run eval:romanised`: how well romanised search finds Hindi and Marathi
// words, measured on attested human romanisations (tests/fixtures/romanised/,
// see SOURCE.md there). It seeds a temporary SQLite database exactly as the
// server does (openServedStore on a missing file), searches each fixture
// row's romanised spelling through the real store, searchPosts(text, 1, 24),
// 24 being the site's first results page, and counts a hit when a post on
// that page has the row's Devanagari word as a whole word in its title or
// text (HTML stripped; words compared as search folds them, so हिंदी and
// हिन्दी are one word). Prints recall per language and part (tune, held-out),
// the failing rows grouped by a rough kind, and precision probes: what
// nonsense and English queries bring back. It reports; it does not judge:
// the exit code is 0 whatever the numbers.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { htmlToPlainText } from "#app/content/html-text.ts";
import type { Language } from "#app/content/languages.ts";
import { foldWords } from "#app/content/search-fold.ts";
import { devanagariSkeletons, latinSkeleton, MIN_ROMAN_LETTERS } from "#app/content/search-roman.ts";
import { openServedStore } from "#app/data/open-store.server.ts";
import { projectRoot } from "#app/data/project-root.server.ts";
import type { SearchResultPage, ServedStore } from "#app/data/store.ts";

/** The site's first results page. */
const FIRST_PAGE = 24;
const EXAMPLES_PER_KIND = 15;
const FIXTURE_LANGUAGES = ["hindi", "marathi"] as const satisfies readonly Language[];
const PARTS = [
  ["tune", "tune"],
  ["heldout", "held-out"],
] as const;
const PROBES = ["zzzz", "qqqq", "kkkk", "xyxy", "a", "the", "man", "god", "hmm"];

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

async function main() {
  const dir = mkdtempSync(path.join(tmpdir(), "sukti-eval-romanised-"));
  const started = Date.now();
  let store: ServedStore | null = null;
  try {
    // A missing file is created, migrated and seeded with the demo content, as the server does.
    store = await openServedStore(`file:${path.join(dir, "demo.db")}`);
    const opened: ServedStore = store;
    const searches = new Map<string, Promise<SearchResultPage>>();
    const search = (text: string) => {
      let result = searches.get(text);
      if (!result) {
        result = opened.searchPosts(text, 1, FIRST_PAGE);
        searches.set(text, result);
      }
      return result;
    };
    const postWords = new Map<string, Promise<Set<string>>>();
    const wordsOf = (language: Language, slug: string, title: string) => {
      const key = `${language}/${slug}`;
      let words = postWords.get(key);
      if (!words) {
        words = opened
          .getPost(language, slug)
          .then((post) => new Set(foldWords(`${title} ${post ? htmlToPlainText(post.content) : ""}`)));
        postWords.set(key, words);
      }
      return words;
    };

    console.log("Romanised search recall on attested romanisations (tests/fixtures/romanised/)");
    console.log(`A hit: a post on the first results page (${FIRST_PAGE}) has the Devanagari word.\n`);
    const summary: string[] = [];
    for (const language of FIXTURE_LANGUAGES) {
      for (const [file, label] of PARTS) {
        const rows = readFixture(
          path.join(projectRoot(), "tests", "fixtures", "romanised", `${language}.${file}.tsv`),
        );
        const failures = new Map<Kind, string[]>(KINDS.map((kind) => [kind, []]));
        let hits = 0;
        let weight = 0;
        let weightHit = 0;
        const words = new Map<string, { top: boolean; any: boolean }>();
        for (const row of rows) {
          const result = await search(row.romanised);
          let found = false;
          for (const post of result.posts) {
            if ((await wordsOf(post.language, post.slug, post.title)).has(row.folded)) {
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
        const line = `${language.padEnd(8)} ${label.padEnd(9)} rows ${String(rows.length).padStart(4)}  recall ${percent(hits, rows.length)}  count-weighted ${percent(weightHit, weight)}  words ${String(wordList.length).padStart(4)}: top spelling found ${percent(wordList.filter((w) => w.top).length, wordList.length)}, some spelling found ${percent(wordList.filter((w) => w.any).length, wordList.length)}`;
        summary.push(line);
        console.log(`== ${line}`);
        for (const kind of KINDS) {
          const examples = failures.get(kind)!;
          if (examples.length === 0) continue;
          console.log(`  ${kind}: ${examples.length} failing`);
          for (const example of examples.slice(0, EXAMPLES_PER_KIND)) console.log(`    ${example}`);
          if (examples.length > EXAMPLES_PER_KIND)
            console.log(`    … ${examples.length - EXAMPLES_PER_KIND} more`);
        }
        console.log("");
      }
    }

    console.log("Precision probes (all results, by language):");
    for (const probe of PROBES) {
      const result = await opened.searchPosts(probe, 1, 1000);
      const byLanguage = new Map<string, number>();
      for (const post of result.posts)
        byLanguage.set(post.language, (byLanguage.get(post.language) ?? 0) + 1);
      const languages = [...byLanguage.entries()].map(([name, n]) => `${name} ${n}`).join(", ");
      const sample = result.posts
        .filter((post) => post.language !== "english")
        .slice(0, 3)
        .map((post) => post.title)
        .join(" | ");
      console.log(
        `  ${JSON.stringify(probe).padEnd(7)} ${String(result.total).padStart(3)} results${languages ? ` (${languages})` : ""}${sample ? `; e.g. ${sample}` : ""}`,
      );
    }

    console.log("\nSummary:");
    for (const line of summary) console.log(`  ${line}`);
    console.log(`  (${searches.size} distinct queries, ${((Date.now() - started) / 1000).toFixed(1)} s)`);
  } finally {
    await store?.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error("eval-romanised could not run:", error);
  process.exitCode = 0;
});
