// What readers read, counted without tracking (decision 056).
// Each response the site sends (a cached page on the fast path, a render
// behind Express) is counted by countPage: what the page is (worked out once
// per rendered page, kept beside it in a WeakMap) and an increment of a
// counter map in memory. The map is written in batches every STATS_FLUSH_MS
// and on shutdown, as additive upserts (server/stats-store.ts), so workers
// and nodes add up. Nothing about the reader is kept: no address, no user
// agent, no cookie; a bot's user agent only decides which column it counts in.
import type { IncomingMessage } from "node:http";
import { z } from "zod";
import { isLanguage, LANG_TAG, LANGUAGES, type Language } from "#app/content/languages.ts";
import { foldText } from "#app/search/fold.ts";
import { cleanSearchText, searchTextFromPath } from "#app/search/page.ts";
import { capSearchText } from "#app/search/text.ts";
import { jsonEndpoint, refuse } from "./json-endpoint.ts";
import type { Logger } from "./logger.ts";
import { pageIdentity, type RenderedPage } from "./page-cache.ts";
import { openStatsStore, type StatRow, type StatsStore, statsDatabaseUrl } from "./stats-store.ts";

/** Longest item kept: a 404 path, a referrer host, a slug (longer ones are cut). */
const MAX_ITEM = 200;
const MAX_HOST = 100;
/** Items past the cap on distinct keys count here. */
export const OTHER = "(other)";

/** Crawlers, link previews, feed fetchers, monitors and scripts, by user agent. */
const BOT_UA =
  /bot|crawl|spider|slurp|scrap|fetch|preview|monitor|check|archiver|curl|wget|python|java\/|go-http|node-fetch|undici|axios|okhttp|libwww|httpclient|headless|lighthouse|facebookexternalhit|embedly|whatsapp|telegram|discord|skype|feed|rss|^$/i;
const botVerdicts = new Map<string, boolean>();

export function isBot(userAgent: string | undefined): boolean {
  const ua = userAgent ?? "";
  let verdict = botVerdicts.get(ua);
  if (verdict === undefined) {
    verdict = BOT_UA.test(ua);
    if (botVerdicts.size > 1000) botVerdicts.clear();
    botVerdicts.set(ua, verdict);
  }
  return verdict;
}

/** The site's day (YYYY-MM-DD) and hour (00–23) in its time zone, read at most once a second. */
export function siteHourClock(timeZone: string, now: () => number = Date.now) {
  const format = new Intl.DateTimeFormat("en-CA", {
    timeZone,
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    hourCycle: "h23",
  });
  let value = { day: "", hour: "" };
  let readAt = Number.NEGATIVE_INFINITY;
  return () => {
    const at = now();
    if (at - readAt >= 1000 || at < readAt) {
      const parts = Object.fromEntries(format.formatToParts(at).map((part) => [part.type, part.value]));
      value = { day: `${parts.year}-${parts.month}-${parts.day}`, hour: parts.hour ?? "00" };
      readAt = at;
    }
    return value;
  };
}

/** What a response counts as. */
type Counted =
  | { kind: "page"; pageKind: string; language: string; post: string | null; search: Search | null }
  | { kind: "feed" | "share-image" | "download"; language: string; item: string }
  | { kind: "not-found"; item: string }
  | null;
interface Search {
  text: string;
  results: number;
}

const LANG_OF_TAG: Record<string, Language> = Object.fromEntries(
  Object.entries(LANG_TAG).map(([language, tag]) => [tag, language as Language]),
);
const HTML_LANG = /<html[^>]*\slang="([a-z-]+)"/;
const CANONICAL = /<link rel="canonical" href="[^"]*?\/(english|hindi|marathi)\/([^"/?#]+)"/;
/** The results line's count, whatever the page's language (?lang=, decision 067). */
const SEARCH_COUNT = /class="search-count" data-total="(\d+)"/;
const FEED = /^\/(?:(english|hindi|marathi)|people\/([^/]+))\/feed\.xml$/;
const SHARE = /^\/share\/(english|hindi|marathi)\/[^/]+\/([^/]+)\.jpg$/;

function decoded(segment: string): string {
  try {
    return decodeURIComponent(segment).normalize("NFC");
  } catch {
    return segment;
  }
}

/** Letters, marks, digits and a few safe signs; at most `max` code points. */
function bounded(text: string, max = MAX_ITEM): string {
  const clean = text.replace(/[\p{C}\s]+/gu, " ").trim();
  const points = Array.from(clean);
  return points.length <= max ? clean : points.slice(0, max).join("");
}

/** The home page's count: one object, so its keys are made once a day (see Stats.page). */
export const HOME: Counted = {
  kind: "page",
  pageKind: "home",
  language: "english",
  post: null,
  search: null,
};

const DATA = ".data";
const DATA_LANGUAGE = /"pageLanguage","(english|hindi|marathi)"/;
const DATA_POST = /"kind","post"/;
const DATA_TOTAL = /"total",(\d+)/;

/**
 * What a response for `path` (no query) counts as; null for what is not
 * counted (redirects, errors, other files). A page's data (`/x.data`, what
 * the browser fetches when a reader follows a link after the first page)
 * counts as the page (`/_root.data` is the home).
 */
export function classify(path: string, query: string, page: RenderedPage): Counted {
  if (path.endsWith(DATA))
    return classifyData(path === "/_root.data" ? "/" : path.slice(0, -DATA.length), query, page);
  if (page.status === 404) return { kind: "not-found", item: bounded(decoded(path)) };
  if (page.status !== 200) return null;
  const type = page.headers.find(([name]) => name === "content-type")?.[1] ?? "";
  if (!type.startsWith("text/html")) {
    const feed = FEED.exec(path);
    if (feed) {
      return feed[1]
        ? { kind: "feed", language: feed[1], item: feed[1] }
        : { kind: "feed", language: "", item: `people/${bounded(decoded(feed[2] ?? ""))}` };
    }
    const share = SHARE.exec(path);
    if (share) {
      const download = /(?:^|&)download(?:=|&|$)/.test(query);
      return {
        kind: download ? "download" : "share-image",
        language: share[1] ?? "",
        item: bounded(decoded(share[2] ?? "")),
      };
    }
    return null;
  }
  // The home, made afresh per request (its gallery differs), is always the same count.
  if (path === "/") return HOME;
  // Read once, and only when needed: a kept page's body is made again from its compressed copy on
  // each read (page-cache.ts), a post page made from its frame on the first (post-page.ts).
  let read: Buffer | null = null;
  const body = () => {
    read ??= page.body;
    return read;
  };
  // A page under a language's address is in that language (its <html lang> says so).
  const first = path.split("/", 2)[1] ?? "";
  const language = isLanguage(first)
    ? first
    : (LANG_OF_TAG[HTML_LANG.exec(body().subarray(0, 4096).toString("latin1"))?.[1] ?? ""] ?? "");
  const canonical = () => {
    const found = CANONICAL.exec(body().toString("utf8", 0, Math.min(body().length, 16_384)));
    return found ? { language: found[1] ?? language, slug: decoded(found[2] ?? "") } : null;
  };
  const results = () => {
    const count = SEARCH_COUNT.exec(body().toString("utf8"));
    return count?.[1] ? Number(count[1]) : 0;
  };
  return pageOf(path, query, language, canonical, results);
}

/** A page's data: its language and post from the data itself, its search's total too. */
function classifyData(path: string, query: string, page: RenderedPage): Counted {
  if (page.status === 404) return { kind: "not-found", item: bounded(decoded(path)) };
  if (page.status !== 200) return null;
  const body = page.body;
  const head = body.toString("utf8", 0, Math.min(body.length, 4096));
  const language = DATA_LANGUAGE.exec(head)?.[1] ?? "english";
  const post = () => (DATA_POST.test(head) ? { language, slug: decoded(path.split("/")[2] ?? "") } : null);
  const results = () => Number(DATA_TOTAL.exec(body.toString("utf8"))?.[1] ?? 0);
  return pageOf(path, query, language, post, results);
}

/** A page view: its kind, its post, its search. */
function pageOf(
  path: string,
  query: string,
  language: string,
  /** For /post/{slug}: the post it shows (language, slug), or null for a site page. */
  postOf: () => { language: string; slug: string } | null,
  searchResults: () => number,
): Counted {
  const segments = path.split("/").slice(1).map(decoded);
  const [first = "", second] = segments;
  let pageKind = "other";
  let post: string | null = null;
  let search: Search | null = null;
  if (path === "/") pageKind = "home";
  else if (isLanguage(first) && second === "home") pageKind = "language-home";
  else if (isLanguage(first) && second !== undefined) {
    pageKind = "post";
    post = bounded(second);
  } else if (first === "post" && second !== undefined) {
    // /post/{slug}: a post of any language (its canonical address says which), or a site page.
    const found = postOf();
    if (found)
      return { kind: "page", pageKind: "post", language: found.language, post: bounded(found.slug), search };
    pageKind = `page:${bounded(second, 60)}`;
  } else if (first === "search") {
    pageKind = "search";
    const text = foldText(capSearchText(cleanSearchText(searchTextFromPath(path) ?? "")).text);
    // Later pages of a search, and its results in one language (decision 065), are the same search.
    if (text !== "" && !/(?:^|&)(?:page|language)=/.test(query))
      search = { text: bounded(text), results: searchResults() };
  } else if (["tags", "tag", "category", "people", "saved", "c"].includes(first)) {
    pageKind =
      first === "people" && second !== undefined
        ? "person"
        : first === "c"
          ? "collection"
          : first === "tag" && second === undefined
            ? "tags"
            : first;
  }
  return { kind: "page", pageKind, language, post, search };
}

/** A referrer's host when it is another site's, lower case, bounded; else null. */
export function externalHost(referer: string | undefined, ownHost: string | undefined): string | null {
  if (!referer) return null;
  const match = /^https?:\/\/(?:[^@/?#]*@)?([^/:?#]+)/i.exec(referer);
  const host = match?.[1]?.toLowerCase();
  if (!host || host.length > MAX_HOST || !/^[a-z0-9.-]+$/.test(host)) return null;
  return ownHost !== undefined && sameHost(host, ownHost) ? null : host;
}

/** Whether `host` (lower case, no port) names the Host header `own` (any case, maybe a port). */
function sameHost(host: string, own: string): boolean {
  if (own.length < host.length || own.slice(0, host.length).toLowerCase() !== host) return false;
  return own.length === host.length || own.charCodeAt(host.length) === 0x3a;
}

export interface StatsOptions {
  store: () => Promise<StatsStore | null>;
  logger: Logger;
  timeZone: string;
  flushMs?: number;
  /** Distinct keys kept between flushes; past it, items count as "(other)". */
  maxKeys?: number;
  /** Months of daily detail kept; older days are rolled into monthly totals. */
  retentionMonths?: number;
  now?: () => number;
}

const SEP = "\u0001";

function statKey(day: string, bot: 0 | 1, kind: string, language: string, item: string): string {
  return `${day}${SEP}${bot}${SEP}${kind}${SEP}${language}${SEP}${item}`;
}

/** A counted page's keys for one day, readers' and bots', made once (see Stats.page). */
interface PageKeys {
  day: string;
  keys: [string[], string[]];
  results: (number | undefined)[];
  /** A page view: also counted by hour, and its referrer. */
  view: boolean;
}

function pageKeys(counted: NonNullable<Counted>, day: string): PageKeys {
  const parts: [string, string, string, number | undefined][] = [];
  if (counted.kind === "page") {
    parts.push(["page", counted.language, counted.pageKind, undefined]);
    if (counted.post) parts.push(["post", counted.language, counted.post, undefined]);
    if (counted.search) parts.push(["search", "", counted.search.text, counted.search.results]);
  } else if (counted.kind === "not-found") parts.push(["not-found", "", counted.item, undefined]);
  else parts.push([counted.kind, counted.language, counted.item, undefined]);
  const keysFor = (bot: 0 | 1) =>
    parts.map(([kind, language, item]) => statKey(day, bot, kind, language, item));
  return {
    day,
    keys: [keysFor(0), keysFor(1)],
    results: parts.map((part) => part[3]),
    view: counted.kind === "page",
  };
}

/** The counter map: one key per day, bot flag, kind, language and item. */
export class StatsCounts {
  #counts = new Map<string, number>();
  #results = new Map<string, number>();
  readonly #maxKeys: number;

  constructor(maxKeys: number) {
    this.#maxKeys = maxKeys;
  }

  get size(): number {
    return this.#counts.size;
  }

  add(day: string, bot: boolean, kind: string, language: string, item: string, n = 1, results?: number) {
    this.addKey(statKey(day, bot ? 1 : 0, kind, language, item), n, results);
  }

  /** Adds to a key made by statKey (kept made, so a page's count hashes no new string). */
  addKey(key: string, n = 1, results?: number) {
    let count = this.#counts.get(key);
    if (count === undefined && this.#counts.size >= this.#maxKeys) {
      key = `${key.slice(0, key.lastIndexOf(SEP))}${SEP}${OTHER}`;
      count = this.#counts.get(key);
      results = undefined;
    }
    this.#counts.set(key, (count ?? 0) + n);
    if (results !== undefined) this.#results.set(key, results);
  }

  /** Everything counted so far, and an empty map from now on. */
  take(): StatRow[] {
    const rows: StatRow[] = [];
    for (const [key, count] of this.#counts) {
      const [day = "", bot, kind = "", language = "", item = ""] = key.split(SEP);
      rows.push({
        day,
        bot: bot === "1" ? 1 : 0,
        kind,
        language,
        item,
        count,
        results: this.#results.get(key) ?? null,
      });
    }
    this.#counts = new Map();
    this.#results = new Map();
    return rows;
  }

  /** Rows a flush could not write, counted again (within the cap). */
  restore(rows: readonly StatRow[]) {
    for (const row of rows)
      this.add(row.day, row.bot === 1, row.kind, row.language, row.item, row.count, row.results ?? undefined);
  }
}

/** The first day kept in detail: the first of the month `months` before `today`'s. */
export function retentionCutoff(today: string, months: number): string {
  const [year = 1970, month = 1] = today.split("-").map(Number);
  const index = year * 12 + (month - 1) - months;
  return `${Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, "0")}-01`;
}

/** The process's counter: null until startStats, and countPage then costs nothing. */
let active: Stats | null = null;

export class Stats {
  readonly counts: StatsCounts;
  readonly clock: () => { day: string; hour: string };
  readonly #options: StatsOptions;
  readonly #counted = new WeakMap<object, { counted: Counted; keys: PageKeys | null }>();
  readonly #home: { counted: Counted; keys: PageKeys | null } = { counted: HOME, keys: null };
  #store: StatsStore | null = null;
  #opening: Promise<StatsStore | null> | null = null;
  #timer: NodeJS.Timeout | null = null;
  #flushing: Promise<void> | null = null;
  #failing = false;
  #rolledUpDay = "";

  constructor(options: StatsOptions) {
    this.#options = options;
    this.counts = new StatsCounts(options.maxKeys ?? 5000);
    this.clock = siteHourClock(options.timeZone, options.now);
  }

  start() {
    const ms = this.#options.flushMs ?? 5000;
    // Workers started together flush apart.
    this.#timer = setInterval(() => void this.flush(), ms + Math.floor(Math.random() * Math.min(ms, 1000)));
    this.#timer.unref();
  }

  /**
   * Counts a response: what its page is, and its keys, are worked out once per
   * rendered page (and day); a cached page then costs a few lookups and
   * increments of strings already hashed.
   */
  page(req: IncomingMessage, page: RenderedPage) {
    // A link the browser fetched ahead in case it is followed (React Router's prefetch="intent").
    const purpose = req.headers["sec-purpose"] ?? req.headers.purpose;
    if (purpose !== undefined && String(purpose).includes("prefetch")) return;
    const identity = pageIdentity(page);
    let seen = this.#counted.get(identity);
    if (seen === undefined) {
      const url = req.url ?? "/";
      const at = url.indexOf("?");
      const counted = classify(at === -1 ? url : url.slice(0, at), at === -1 ? "" : url.slice(at + 1), page);
      seen = counted === HOME ? this.#home : { counted, keys: null };
      this.#counted.set(identity, seen);
    }
    const counted = seen.counted;
    if (counted === null) return;
    const { day, hour } = this.clock();
    if (seen.keys?.day !== day) seen.keys = pageKeys(counted, day);
    const bot = isBot(req.headers["user-agent"]) ? 1 : 0;
    const keys = seen.keys.keys[bot];
    for (let i = 0; i < keys.length; i++) this.counts.addKey(keys[i] as string, 1, seen.keys.results[i]);
    if (!seen.keys.view) return;
    this.counts.addKey(this.#hourKey(day, hour, bot));
    const referer = req.headers.referer;
    if (referer !== undefined) this.#referrer(referer, req.headers.host, day, bot);
  }

  /** A referrer's host and keys, per referring address and day (a link followed many times is parsed once). */
  #referrers = new Map<string, { host: string; keys: [string, string] } | null>();
  #referrersDay = "";

  #referrer(referer: string, ownHost: string | undefined, day: string, bot: 0 | 1) {
    if (this.#referrersDay !== day || this.#referrers.size > 2000) {
      this.#referrers = new Map();
      this.#referrersDay = day;
    }
    let known = this.#referrers.get(referer);
    if (known === undefined) {
      const host = externalHost(referer, undefined);
      known = host
        ? { host, keys: [statKey(day, 0, "referrer", "", host), statKey(day, 1, "referrer", "", host)] }
        : null;
      this.#referrers.set(referer, known);
    }
    if (known === null || (ownHost !== undefined && sameHost(known.host, ownHost))) return;
    this.counts.addKey(known.keys[bot]);
  }

  #hourKeys: { day: string; keys: string[] } = { day: "", keys: [] };

  #hourKey(day: string, hour: string, bot: 0 | 1): string {
    if (this.#hourKeys.day !== day) {
      const hours = Array.from({ length: 24 }, (_, h) => String(h).padStart(2, "0"));
      this.#hourKeys = {
        day,
        keys: [0, 1].flatMap((b) => hours.map((h) => statKey(day, b as 0 | 1, "hour", "", h))),
      };
    }
    return this.#hourKeys.keys[bot * 24 + Number(hour)] as string;
  }

  event(req: IncomingMessage, kind: string, language: string, item: string) {
    const { day } = this.clock();
    this.counts.add(day, isBot(req.headers["user-agent"]), kind, language, bounded(item));
  }

  async #openStore(): Promise<StatsStore | null> {
    if (this.#store) return this.#store;
    this.#opening ??= this.#options.store().finally(() => {
      this.#opening = null;
    });
    this.#store = await this.#opening;
    return this.#store;
  }

  /** Writes what was counted; on failure keeps it for the next flush and says so once. */
  flush(): Promise<void> {
    this.#flushing ??= this.#flushOnce().finally(() => {
      this.#flushing = null;
    });
    return this.#flushing;
  }

  async #flushOnce(): Promise<void> {
    const rows = this.counts.take();
    try {
      const store = await this.#openStore();
      if (!store) return;
      if (rows.length > 0) await store.add(rows);
      if (this.#failing) this.#options.logger.info("stats written again");
      this.#failing = false;
    } catch (error) {
      this.counts.restore(rows.slice((error as { written?: number }).written ?? 0));
      // Another worker's flush held the SQLite file past the busy timeout: next time.
      if ((error as { code?: string }).code === "SQLITE_BUSY") return;
      if (!this.#failing) {
        this.#options.logger.warn("cannot write stats; counting in memory", {
          error: (error as Error).message,
        });
      }
      this.#failing = true;
      // A broken connection or file is opened afresh next time.
      const store = this.#store;
      this.#store = null;
      await store?.close().catch(() => {
        // Already broken: nothing more to close.
      });
      return;
    }
    // Once a day per process: days past the retention become monthly totals.
    const { day } = this.clock();
    if (day === this.#rolledUpDay || !this.#store) return;
    this.#rolledUpDay = day;
    try {
      await this.#store.rollUp(retentionCutoff(day, this.#options.retentionMonths ?? 13));
    } catch (error) {
      this.#options.logger.warn("cannot roll up old stats; trying again tomorrow", {
        error: (error as Error).message,
      });
    }
  }

  async stop(): Promise<void> {
    if (this.#timer) clearInterval(this.#timer);
    await this.#flushing;
    await this.flush();
    await this.#store?.close();
    this.#store = null;
  }
}

/** Starts counting in this process; the returned Stats is flushed by its own timer and stopped by the caller. */
export function startStats(options: StatsOptions): Stats {
  active = new Stats(options);
  active.start();
  return active;
}

/** The counting of start.ts: the stats database for the site's, its settings from the environment. */
export function startSiteStats(
  env: {
    DATABASE_URL: string;
    STATS?: "on" | "off";
    STATS_DATABASE_URL?: string;
    STATS_FLUSH_MS?: number;
    STATS_MAX_KEYS?: number;
    STATS_RETENTION?: number;
  },
  logger: Logger,
  timeZone: string,
): Stats | null {
  if (env.STATS === "off") return null;
  const url = statsDatabaseUrl(env.DATABASE_URL, env.STATS_DATABASE_URL);
  return startStats({
    store: () => openStatsStore(url),
    logger,
    timeZone,
    flushMs: env.STATS_FLUSH_MS,
    maxKeys: env.STATS_MAX_KEYS,
    retentionMonths: env.STATS_RETENTION,
  });
}

/** Counts a response the site sent (fast path and Express alike): a map increment. */
export function countPage(req: IncomingMessage, page: RenderedPage) {
  if (active === null || req.method !== "GET") return;
  active.page(req, page);
}

// ---- The beacon: POST /stats/beacon ---------------------------------------

/** Clicks the beacon may report: copying, and the share links by network. */
export const BEACON_EVENTS = [
  "copy-link",
  "copy-text",
  "share-whatsapp",
  "share-facebook",
  "share-x",
] as const;
export const BEACON_MAX_BYTES = 1024;

const BeaconSchema = z.strictObject({
  event: z.enum(BEACON_EVENTS),
  language: z.enum(LANGUAGES),
  slug: z.string().min(1).max(MAX_ITEM),
});

/**
 * POST /stats/beacon: `navigator.sendBeacon` from a post's copy and share
 * buttons, `{"event", "language", "slug"}`, answered 204 with no body and no
 * cookie. A beacon from another site's page (its Origin says so) is refused.
 */
export const statsBeacon = jsonEndpoint({
  method: "POST",
  maxBytes: BEACON_MAX_BYTES,
  schema: BeaconSchema,
  perMinute: 60,
  handle: (beacon, req, res) => {
    const origin = req.headers.origin;
    if (origin !== undefined && externalHost(origin, req.headers.host) !== null)
      return refuse(res, 403, "a beacon must come from this site's pages");
    active?.event(req, beacon.event, beacon.language, beacon.slug);
    res.status(204).set("Cache-Control", "no-store").end();
  },
});
