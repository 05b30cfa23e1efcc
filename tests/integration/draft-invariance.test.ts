// Decision 048, tested as a rule rather than by a few examples: what a
// visitor sees is a function of the published records only. For each seed, on
// SQLite and on PostgreSQL: import random published posts (people, tags,
// categories, translation groups, idNums, slugs shared across languages),
// crawl the built server's public responses (home with its gallery, the
// seeded random source of the test server making it one draw, language
// homes, posts, /post/{slug}, tags, categories, people, feeds, sitemaps,
// robots, share images, searches), then import random unpublished records
// (draft, pending, private, future, trash) that touch every shared thing: the
// same person by slug or by name with new names in every language, existing
// and new tags and categories, a published post's translation group, a huge
// idNum, a slug a published post has in another language, titles and names
// that are search words. Every response must be byte for byte what it was.
//
// The import of the drafts also rewrites one site page (the canary, at
// /post/{CANARY}, left out of the comparison): once the server shows its new
// text it serves the content version that holds the drafts (PostgreSQL's
// version arrives by NOTIFY or a poll, not at once). SEEDS="1 2 3" picks the
// seeds; a failure names its seed and store.
import { writeFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { LANGUAGES, type Language } from "#app/content/languages.ts";
import { slugify } from "#app/content/slugs.ts";
import { runSukti } from "#tests/support/cli.ts";
import { READY_MS } from "#tests/support/limits.ts";
import { postgresAvailable, sharedPostgres, type TestPostgres } from "#tests/support/postgres.ts";
import { type RunningServer, startServer } from "#tests/support/server.ts";

const ORIGIN = "https://sukti.example";
const SEEDS = (process.env.SEEDS ?? "11 2027 90210").split(/\s+/).filter(Boolean).map(Number);
const CANARY = "zz-canary";
const MAX_URLS = 700;
const SHARE_IMAGES = 4;
const HUGE_ID_NUM = 999_999_999_999;
const REQUEST_ID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;

/** mulberry32: a small seeded generator, the same numbers for the same seed on every machine. */
function prng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number) => Math.floor(next() * n);
  const pick = <T>(list: readonly T[]): T => list[int(list.length)] as T;
  const some = <T>(list: readonly T[], max: number): T[] => {
    const count = int(max + 1);
    return [...new Set(Array.from({ length: count }, () => pick(list)))];
  };
  return { next, int, pick, some, chance: (p: number) => next() < p };
}
type Random = ReturnType<typeof prng>;

const WORDS: Record<Language, string[]> = {
  english: ["love", "river", "truth", "silence", "light", "heart", "mind", "path", "wave", "seeker", "grace"],
  hindi: ["प्रेम", "नदी", "सत्य", "मौन", "प्रकाश", "हृदय", "मन", "मार्ग", "लहर", "साधक", "कृपा"],
  marathi: ["प्रेम", "नदी", "सत्य", "शांतता", "प्रकाश", "मन", "वाट", "लाट", "साधक", "कृपा", "अभंग"],
};
const TAGS = ["Love", "प्रेम", "Courage", "भक्ति", "Truth", "Silence", "मौन", "Devotion"];
const CATEGORIES = ["Teachings", "दोहे", "अभंग", "Sayings"];
/** People as published records name them (the same person sometimes by another of their names). */
const PEOPLE = [
  { name: "Kabir", names: { hi: "कबीर", mr: "कबीर" }, slug: "kabir" },
  { name: "कबीर" },
  { name: "Tukaram", names: { mr: "तुकाराम" } },
  { name: "तुकाराम" },
  { name: "Mirabai", names: { hi: "मीराबाई" } },
  { name: "रैदास" },
];
const STATUSES = ["draft", "pending", "private", "future", "trash"] as const;
const IMAGES = ["", "", "/images/cards/english-1.webp", "https://images.example/quote.jpg"];

interface Rec {
  idNum: number;
  language: Language;
  status: string;
  postTime: number;
  title: string;
  slug: string;
  content: string;
  excerpt: string;
  featureImageUrl: string;
  tags: string[];
  categories: string[];
  translationKey?: string;
  source?: unknown;
}

function sentence(r: Random, language: Language, count: number): string {
  return Array.from({ length: count }, () => r.pick(WORDS[language])).join(" ");
}

/** 30–60 published posts; idNums and slugs unique per language, some slugs shared across languages. */
function publishedRecords(r: Random): Rec[] {
  const count = 30 + r.int(31);
  const used = new Map<Language, { ids: Set<number>; slugs: Set<string> }>(
    LANGUAGES.map((l) => [l, { ids: new Set(), slugs: new Set() }]),
  );
  const groups: Map<string, Set<Language>> = new Map();
  const records: Rec[] = [];
  for (let i = 0; i < count; i++) {
    const language = r.pick(LANGUAGES);
    const mine = used.get(language)!;
    let idNum = 1 + r.int(120);
    while (mine.ids.has(idNum)) idNum = 1 + r.int(120);
    mine.ids.add(idNum);
    // A slug another language's post may have too (shared-N), else the post's own.
    let slug = r.chance(0.2) ? `shared-${r.int(6)}` : `${language}-quote-${i}`;
    if (mine.slugs.has(slug)) slug = `${language}-quote-${i}`;
    mine.slugs.add(slug);
    const title = `${sentence(r, language, 2 + r.int(3))} ${i}`;
    const record: Rec = {
      idNum,
      language,
      status: "publish",
      postTime: 1_700_000_000 + r.int(5_000_000),
      title,
      slug,
      content: `<p>${sentence(r, language, 6 + r.int(10))}</p><p>${sentence(r, language, 4)}</p>`,
      excerpt: r.chance(0.5) ? sentence(r, language, 5) : "",
      featureImageUrl: r.pick(IMAGES),
      tags: r.some(TAGS, 3),
      categories: r.some(CATEGORIES, 1),
    };
    if (r.chance(0.5)) {
      const key = `group-${r.int(8)}`;
      const members = groups.get(key) ?? new Set();
      if (!members.has(language)) {
        members.add(language);
        groups.set(key, members);
        record.translationKey = key;
      }
    }
    if (r.chance(0.7)) {
      record.source = {
        person: r.pick(PEOPLE),
        ...(r.chance(0.5) ? { work: `${r.pick(WORDS[language])} book` } : {}),
        ...(r.chance(0.3) ? { reference: `${1 + r.int(40)}` } : {}),
      };
    }
    records.push(record);
  }
  return records;
}

/** What the drafts bring that a visitor may look for: their addresses and search words. */
interface DraftProbe {
  records: Rec[];
  paths: string[];
  searches: string[];
}

/** 12–20 unpublished records, each touching things the published posts share. */
function unpublishedRecords(r: Random, published: Rec[]): DraftProbe {
  const ids = new Map<Language, Set<number>>(
    LANGUAGES.map((l) => [l, new Set(published.filter((p) => p.language === l).map((p) => p.idNum))]),
  );
  const slugs = new Map<Language, Set<string>>(
    LANGUAGES.map((l) => [l, new Set(published.filter((p) => p.language === l).map((p) => p.slug))]),
  );
  const groupLanguages = new Map<string, Set<Language>>();
  for (const post of published) {
    if (!post.translationKey) continue;
    const set = groupLanguages.get(post.translationKey) ?? new Set();
    set.add(post.language);
    groupLanguages.set(post.translationKey, set);
  }
  // New tags; the last three are a letter off a published word's romanisation (प्रकाश, साधक, हृदय):
  // a search for them finds those posts as long as no indexed word begins with them.
  const newTags = ["Draftonlytag", "ड्राफ्टटैग", "Prakashh", "Saadhakk", "Hridayy"];
  const newCategories = ["Draftcategory", "मसौदावर्ग"];
  const names = (n: number) => ({
    en: `Draftname${n}`,
    hi: `ड्राफ्टनाम${n}`,
    mr: `मसुदानाव${n}`,
  });
  const people = [
    { slug: "kabir", name: "Draftname1", names: names(1) },
    { name: "Kabir", names: names(2) },
    { name: "कबीर", names: names(3) },
    { name: "तुकाराम", names: names(4) },
    { name: "Mirabai", names: { hi: "ड्राफ्टमीरा" } },
    { name: "Draftperson" },
    { name: "ड्राफ्टव्यक्ति", slug: "draft-person" },
    "रैदास",
  ];
  // Words the drafts' tags would add to the vocabulary in bulk, beside published words: more than
  // the lookups read (prefix, infix, romanised), so a leak pushes the published words out.
  const vowels = ["", "ा", "ि", "ी", "ु", "ू", "े", "ो"];
  const flood = [
    ...Array.from(
      { length: 70 },
      (_, i) => `Lov${String.fromCharCode(97 + (i % 26))}${String.fromCharCode(97 + Math.floor(i / 26))}`,
    ),
    ...vowels.flatMap((a) => vowels.map((b) => `प${a}र${b}क`)),
    ...vowels.map((a) => `सा${a}धकश`),
  ];
  const count = 12 + r.int(9);
  const records: Rec[] = [];
  let hugeTaken = false;
  for (let i = 0; i < count; i++) {
    const language = r.pick(LANGUAGES);
    let idNum: number;
    if (!hugeTaken && (i === 0 || r.chance(0.15))) {
      idNum = HUGE_ID_NUM;
      hugeTaken = true;
    } else {
      idNum = 1 + r.int(400);
      while (ids.get(language)!.has(idNum)) idNum = 1 + r.int(400);
    }
    ids.get(language)!.add(idNum);
    // A slug a published post of another language has, or one of its own.
    const elsewhere = published.filter((p) => p.language !== language && !slugs.get(language)!.has(p.slug));
    const slug = elsewhere.length > 0 && r.chance(0.4) ? r.pick(elsewhere).slug : `draft-${language}-${i}`;
    slugs.get(language)!.add(slug);
    const record: Rec = {
      idNum,
      language,
      status: STATUSES[i % STATUSES.length]!,
      postTime: 1_700_000_000 + r.int(6_000_000),
      // A title of published words and a word of its own.
      title: `${sentence(r, language, 2)} Drafttitle${i}`,
      slug,
      content: `<p>${sentence(r, language, 6)} Draftbody${i}</p>`,
      excerpt: r.chance(0.5) ? `Draftexcerpt${i}` : "",
      featureImageUrl: r.pick(IMAGES),
      tags: [...r.some(TAGS, 2), ...r.some(newTags, 2), ...flood.filter((_, n) => n % count === i)],
      categories: [...r.some(CATEGORIES, 1), ...r.some(newCategories, 1)],
      source: {
        person: people[i % people.length],
        work: `Draftwork${i}`,
        reference: `Draftref${i}`,
      },
    };
    // A published post's translation group, in a language it has no post in.
    const open = [...groupLanguages].filter(([, langs]) => !langs.has(language));
    if (open.length > 0 && r.chance(0.6)) {
      const [key, langs] = r.pick(open);
      langs.add(language);
      record.translationKey = key;
    }
    records.push(record);
  }
  const paths = [
    ...records.flatMap((d) => [
      `/${d.language}/${encodeURIComponent(d.slug)}`,
      `/post/${encodeURIComponent(d.slug)}`,
    ]),
    ...newTags.map((t) => `/tag/${encodeURIComponent(slugify(t))}`),
    ...newCategories.map((t) => `/category/${encodeURIComponent(slugify(t))}`),
    ...["draftperson", "draft-person", "draftname1", "draftname2", "kabir"].flatMap((slug) => [
      `/people/${slug}`,
      `/people/${slug}/feed.xml`,
    ]),
  ];
  const searches = [
    "Draftname1",
    "draftname4",
    "ड्राफ्टनाम2",
    "मसुदानाव3",
    "draftn",
    "Drafttitle0",
    "drafttitle",
    "Draftbody1",
    "Draftonlytag",
    "ड्राफ्टटैग",
    "Draftcategory",
    "draftperson",
    "Draftwork1",
    "draftonly",
    "kabir",
    "कबीर",
    "kabeer",
    "tukaram",
    "love",
    "प्रेम",
    "river truth",
    "silence",
    "मन",
    "dohe",
    "lov",
    "love",
    "prak",
    "prakash",
    "sadhak",
    "धक",
    "prakashh",
    "saadhakk",
    "hridayy",
  ];
  return { records, paths, searches };
}

interface Snapshot {
  status: number;
  type: string;
  location: string;
  body: Buffer;
}

/** Fetches every path once, a few at a time. */
async function fetchAll(base: string, paths: readonly string[]): Promise<Map<string, Snapshot>> {
  const out = new Map<string, Snapshot>();
  // Searches one at a time, as a visitor sends them: a search waiting behind
  // the ones running may be refused (503) on a busy machine (search-limits.ts).
  const searches = paths.filter((p) => p.startsWith("/search/"));
  const pages = paths.filter((p) => !p.startsWith("/search/"));
  const worker = async (queue: string[]) => {
    for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
      const response = await fetch(`${base}${next}`, { redirect: "manual" });
      const type = response.headers.get("content-type") ?? "";
      let body = Buffer.from(await response.arrayBuffer());
      // The one per-request value: an error page's request id.
      if (/html|xml|json|text/.test(type))
        body = Buffer.from(body.toString("utf8").replace(REQUEST_ID, "<id>"));
      out.set(next, {
        status: response.status,
        type,
        location: response.headers.get("location") ?? "",
        body,
      });
    }
  };
  await Promise.all([worker(searches), ...Array.from({ length: 3 }, () => worker(pages))]);
  return out;
}

/** Local paths a response links to: hrefs, srcs, sitemap locs and og:image share images. */
function linksOf(body: string): string[] {
  const found: string[] = [];
  for (const match of body.matchAll(/(?:href|src|content)="([^"]+)"|<loc>([^<]+)<\/loc>/g)) {
    let raw = (match[1] ?? match[2] ?? "").replaceAll("&amp;", "&");
    if (raw.startsWith(ORIGIN)) raw = raw.slice(ORIGIN.length);
    if (!raw.startsWith("/") || raw.startsWith("//")) continue;
    found.push(raw.split("#")[0]!);
  }
  return found;
}

/** The public paths reachable from the seeds (pages, feeds, sitemaps; a few share images), bounded. */
async function crawl(base: string, seeds: readonly string[]): Promise<string[]> {
  const seen = new Set<string>(seeds);
  let frontier = [...seeds];
  let shareImages = 0;
  while (frontier.length > 0 && seen.size < MAX_URLS) {
    const fetched = await fetchAll(base, frontier);
    frontier = [];
    for (const [, snap] of fetched) {
      if (!/html|xml/.test(snap.type)) continue;
      for (const link of linksOf(snap.body.toString("utf8"))) {
        if (seen.has(link) || seen.size >= MAX_URLS) continue;
        if (link.startsWith("/share/")) {
          if (shareImages >= SHARE_IMAGES) continue;
          shareImages++;
        } else if (
          /^\/(assets|img|images|fonts)\//.test(link) ||
          /\.(js|css|svg|png|webp|jpg|ico)$/.test(link)
        ) {
          continue;
        }
        seen.add(link);
        frontier.push(link);
      }
    }
  }
  return [...seen];
}

/** Where two snapshots differ, one line each with the text around the first difference. */
function differences(before: Map<string, Snapshot>, after: Map<string, Snapshot>): string[] {
  const out: string[] = [];
  for (const [url, a] of before) {
    const b = after.get(url);
    if (!b) {
      out.push(`${url}: not fetched again`);
      continue;
    }
    if (a.status !== b.status || a.type !== b.type || a.location !== b.location) {
      out.push(`${url}: ${a.status} ${a.type} ${a.location} → ${b.status} ${b.type} ${b.location}`);
      continue;
    }
    if (a.body.equals(b.body)) continue;
    const x = a.body.toString("utf8");
    const y = b.body.toString("utf8");
    let i = 0;
    while (i < x.length && x[i] === y[i]) i++;
    const from = Math.max(0, i - 60);
    out.push(`${url}: «${x.slice(from, i + 80)}» → «${y.slice(from, i + 80)}»`);
  }
  return out.slice(0, 40);
}

type Store = "sqlite" | "postgres";
const stores: Store[] = ["sqlite", ...(postgresAvailable() ? (["postgres"] as const) : [])];

describe.each(stores)("on %s, unpublished records change no public response", (store) => {
  let pg: TestPostgres | null = null;
  let dir = "";

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "sukti-drafts-"));
    if (store === "postgres") pg = await sharedPostgres();
  });
  afterAll(async () => {
    await pg?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  test.each(SEEDS)(
    "seed %i",
    async (seed) => {
      const r = prng(seed);
      const published = publishedRecords(r);
      const drafts = unpublishedRecords(r, published);
      const databaseUrl =
        store === "postgres"
          ? await pg!.createDatabase(`drafts_${seed}`)
          : `file:${path.join(dir, `s${seed}.db`)}`;
      const importFile = async (name: string, content: unknown) => {
        const file = path.join(dir, `${store}-${seed}-${name}.json`);
        writeFileSync(file, JSON.stringify(content));
        const result = await runSukti(["import", file], { DATABASE_URL: databaseUrl });
        expect(result.status, `seed ${seed} (${store}): ${name} import\n${result.stderr}`).toBe(0);
      };
      const canary = (text: string) => ({ slug: CANARY, title: "Canary", content: `<p>${text}</p>` });
      await importFile("published", { posts: published, pages: [canary("before the drafts")] });

      const server: RunningServer = await startServer({
        env: { DATABASE_URL: databaseUrl, PUBLIC_URL: ORIGIN },
      });
      try {
        const paths = [
          ...(await crawl(server.url, [
            "/",
            ...LANGUAGES.map((l) => `/${l}/home`),
            ...LANGUAGES.map((l) => `/${l}/feed.xml`),
            "/tags",
            "/people",
            "/sitemap.xml",
            "/robots.txt",
            "/manifest.webmanifest",
          ])),
          ...drafts.paths,
          ...drafts.searches.map((q) => `/search/${encodeURIComponent(q)}`),
          // The canary changes on purpose, in each of its language versions (?lang=, decision 067).
        ].filter((p, i, all) => !p.startsWith(`/post/${CANARY}`) && all.indexOf(p) === i);
        expect(paths.length).toBeGreaterThan(80);

        const before = await fetchAll(server.url, paths);
        // The same responses twice: nothing per request is left to remove.
        expect(differences(before, await fetchAll(server.url, paths)), `seed ${seed} (${store})`).toEqual([]);

        await importFile("unpublished", { posts: drafts.records, pages: [canary("after the drafts")] });
        // The server serves the new content version once the canary shows it.
        const deadline = Date.now() + READY_MS;
        for (;;) {
          const text = await (await fetch(`${server.url}/post/${CANARY}`)).text();
          if (text.includes("after the drafts")) break;
          if (Date.now() > deadline) throw new Error(`seed ${seed} (${store}): the canary never changed`);
          await new Promise((resolve) => setTimeout(resolve, 100));
        }

        const after = await fetchAll(server.url, paths);
        expect(differences(before, after), `seed ${seed} (${store}): responses a draft changed`).toEqual([]);
      } finally {
        await server.stop();
      }
    },
    240_000,
  );
});
