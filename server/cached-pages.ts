// The page caches and what keeps them fresh (decision 057). Each page is kept
// with the tags of what it shows (render.ts). When the content version moves
// (a write here or elsewhere: SQLite's data_version, PostgreSQL's channel),
// the server reads the change log since the last row it saw, before it
// serves another page from a cache: pages showing a removed tag (an
// unpublish, a delete) are dropped at once; pages showing a changed tag are
// served stale while one background render replaces each (coalesced: one per
// page however many visitors ask). A log that cannot tell (pruned past what
// the server saw, a write from outside sukti) drops every page, as before.
// After start, the most visited pages are rendered ahead, one at a time,
// only while no visitor's render is under way.
import { randomUUID } from "node:crypto";
import { performance } from "node:perf_hooks";
import { LANGUAGES, postPath } from "#app/content/languages.ts";
import type { ChangesSince, ContentChange } from "#app/data/cache-tags.ts";
import type { ContentStore } from "#app/data/store.ts";
import type { CanonicalUrl } from "./canonical-url.ts";
import type { HomePage } from "./home-page.ts";
import type { Logger } from "./logger.ts";
import { type CacheHit, isKeptPage, isMissingPage, PageCache, type RenderedPage } from "./page-cache.ts";
import type { Render } from "./render.ts";

/** Stale pages refreshed ahead of their next visitor per write: the most recently used first. */
const EAGER_REFRESHES = 64;
/** Refreshes waiting at most; past it a stale page waits for a visitor (or is dropped past MAX_STALE_MS). */
const MAX_QUEUED = 1000;
/** Warm-up gives up when visitors have kept the server busy this long. */
const WARM_UP_PATIENCE_MS = 3000;
/**
 * Before each page it renders ahead, the warm-up looks at the event loop for
 * this long: busy more than IDLE_UTILIZATION of it (visitors, even all of
 * them cache hits), it waits. A render holds the loop 10–50 ms, and right
 * after a start with visitors at the door each one was a visitor's wait
 * (decision 079).
 */
const IDLE_LOOK_MS = 50;
const IDLE_UTILIZATION = 0.5;
/** Recent posts per language rendered ahead at start. */
const WARM_POSTS = 12;

export interface CachedPagesOptions {
  /** Changes whenever the content does; null while the database is unreachable (no caching). */
  contentVersion: () => string | null;
  /** The change log (ServedStore.changesSince); without it any change drops every page. */
  changesSince?: (cursor: string | null) => Promise<ChangesSince>;
  /** The site-day (its time zone): a page made on an earlier day is stale. */
  today: () => string;
  render: Render;
  /** Searches render here (the search thread), others with `render`. */
  renderSearch: Render;
  homePage: HomePage | null;
  store: ContentStore;
  logger: Logger;
}

interface Job {
  key: string;
  origin: string;
  url: string;
  search: boolean;
}

/** The counters a render started at: a removal applied while it ran means it is not kept. */
export interface Snapshot {
  removals: number;
  changes: number;
}

export class CachedPages {
  readonly pages = new PageCache();
  /** Search pages have a cache of their own: a run of searches cannot push pages out. */
  readonly searches = new PageCache({ maxEntries: 500, maxBytes: 8 * 1024 * 1024 });
  /**
   * Pages that answered 404 (an unpublished post's address still shared, a
   * crawler's old link), apart too: a run of made-up addresses cannot push
   * pages out. Any write that touches what one shows drops it (decision 080).
   */
  readonly missing = new PageCache({ maxEntries: 500, maxBytes: 4 * 1024 * 1024 });
  /** Visitors' renders under way (app.ts): warm-up waits for none. */
  activeRenders = 0;
  readonly #options: CachedPagesOptions;
  /** The content version the caches reflect; undefined before the first catch-up. */
  #seen: string | null | undefined = undefined;
  #cursor: string | null = null;
  #catchingUp: Promise<void> | null = null;
  #removals = 0;
  #changes = 0;
  readonly #queue: Job[] = [];
  readonly #queued = new Set<string>();
  #draining = false;
  #warming = false;

  constructor(options: CachedPagesOptions) {
    this.#options = options;
  }

  get removals(): number {
    return this.#removals;
  }

  snapshot(): Snapshot {
    return { removals: this.#removals, changes: this.#changes };
  }

  /**
   * Whether the caches reflect the content now (synchronous, for the fast
   * path); false while the database is unreachable or the log is being read
   * (settle() waits for it).
   */
  ready(): boolean {
    const version = this.#options.contentVersion();
    if (version === null) return false;
    if (version === this.#seen) return true;
    this.#catchUp(version);
    return false;
  }

  /** Waits until the caches reflect the content; false when nothing may be cached (database unreachable). */
  async settle(): Promise<boolean> {
    for (let round = 0; round < 3; round++) {
      if (this.ready()) return true;
      const catching = this.#catchingUp;
      if (!catching) return false;
      await catching;
    }
    return this.ready();
  }

  #catchUp(version: string): void {
    if (this.#catchingUp) return;
    this.#catchingUp = (async () => {
      // Never settled within this call: #catchingUp is set before the finally below clears it.
      await null;
      const { changesSince } = this.#options;
      try {
        if (!changesSince) {
          if (this.#seen !== undefined) this.#apply(null);
        } else {
          const read = await changesSince(this.#cursor);
          const first = this.#cursor === null;
          this.#cursor = read.cursor;
          if (!first || read.changes === null) this.#apply(read.changes);
        }
        this.#seen = version;
      } catch (error) {
        // The log cannot be read (the database went away): every page goes, as before decision 057.
        this.#options.logger.warn("cannot read the content change log; dropping every cached page", {
          error: (error as Error).message,
        });
        this.#apply(null);
        this.#cursor = null;
        this.#seen = undefined;
      } finally {
        this.#catchingUp = null;
      }
    })();
  }

  /** Applies what the writes changed: removals drop pages, other changes mark them stale (and refresh the busiest). */
  #apply(changes: ContentChange[] | null): void {
    if (changes === null) {
      this.clear();
      return;
    }
    const stale: string[] = [];
    for (const change of changes) {
      const tags = new Set(change.tags);
      if (change.removal) this.#removals++;
      else this.#changes++;
      for (const cache of [this.pages, this.searches]) {
        const touched = cache.invalidate(tags, change.removal);
        if (!change.removal) stale.push(...touched.slice(-EAGER_REFRESHES));
      }
      // A 404 is never served stale: a post published at that address must show at once.
      this.missing.invalidate(tags, true);
      this.#options.homePage?.invalidate(tags, change.removal);
    }
    for (const key of stale.slice(-EAGER_REFRESHES)) {
      const job = jobOf(key, this.searches.has(key));
      if (job) this.#enqueue(job);
    }
  }

  /** Drops every page and template (a config reload, a log that cannot tell). */
  clear(): void {
    this.#removals++;
    this.#changes++;
    this.pages.clear();
    this.searches.clear();
    this.missing.clear();
    this.#options.homePage?.clear();
  }

  /** The cached page for this address, if any; a stale one is refreshed in the background. */
  lookup(origin: string, target: CanonicalUrl): CacheHit | null {
    const key = `${origin}${target.url}`;
    const today = this.#options.today();
    const hit = (target.search ? this.searches : this.pages).get(key, today);
    // A page a visitor (or a cache in front) asks for now is refreshed before those only marked stale.
    if (hit?.stale) this.#enqueue({ key, origin, url: target.url, search: target.search }, { first: true });
    if (hit || target.search) return hit;
    const missing = this.missing.get(key, today);
    if (!missing?.stale) return missing;
    // Made on an earlier site-day: rendered again by this visitor.
    this.missing.delete(key);
    return null;
  }

  /**
   * Keeps a page rendered since `started`: not if a removal was applied
   * meanwhile; stale if a change was. A 404 is kept only if nothing changed
   * meanwhile. Returns whether it was kept.
   */
  keep(origin: string, target: CanonicalUrl, page: RenderedPage, started: Snapshot): boolean {
    const key = `${origin}${target.url}`;
    if (this.#removals !== started.removals) return false;
    if (isMissingPage(page) && !target.search) {
      if (this.#changes !== started.changes) return false;
      this.missing.set(key, this.#options.today(), page);
      return true;
    }
    if (!isKeptPage(page)) return false;
    this.missing.delete(key);
    (target.search ? this.searches : this.pages).set(key, this.#options.today(), page, {
      stale: this.#changes !== started.changes,
    });
    return true;
  }

  #enqueue(job: Job, { first = false } = {}): void {
    if (this.#queued.has(job.key)) {
      // Still waiting (not under way: #drain takes a job off the queue before it renders): moved up.
      const at = first ? this.#queue.findIndex((queued) => queued.key === job.key) : -1;
      if (at > 0) this.#queue.unshift(...this.#queue.splice(at, 1));
      return;
    }
    if (this.#queued.size >= MAX_QUEUED) return;
    this.#queued.add(job.key);
    if (first) this.#queue.unshift(job);
    else this.#queue.push(job);
    if (!this.#draining) void this.#drain();
  }

  /** One background render at a time, each after the requests already waiting. */
  async #drain(): Promise<void> {
    this.#draining = true;
    try {
      for (let job = this.#queue.shift(); job; job = this.#queue.shift()) {
        await new Promise((resolve) => setImmediate(resolve));
        await this.#refresh(job);
        this.#queued.delete(job.key);
      }
    } finally {
      this.#draining = false;
    }
  }

  async #refresh({ key, origin, url, search }: Job): Promise<void> {
    const started = this.snapshot();
    try {
      // Pages refresh in the process, at its priority: in the search thread (nice 10) a busy machine
      // starved them past a second (decision 076); searches refresh where they render.
      const render = search ? this.#options.renderSearch : this.#options.render;
      const { page } = await render({ headers: {} }, { url, origin, requestId: randomUUID() });
      const cache = search ? this.searches : this.pages;
      if (isKeptPage(page)) this.keep(origin, { url, search, cacheable: true }, page, started);
      // Gone since (a 404, an error): the next visitor gets a render of their own.
      else cache.delete(key);
    } catch (error) {
      this.#options.logger.warn("background render failed", { url, error: (error as Error).message });
    }
  }

  /**
   * Renders the most visited pages ahead, once after start: the language
   * homes, the sitemap's first pages, tags and people, the newest posts, and
   * the home's template. One at a time, only while no visitor's render is
   * under way; given up if visitors keep the server busy.
   */
  async warmUp(origin: string): Promise<void> {
    if (this.#warming) return;
    this.#warming = true;
    const { store, homePage, logger } = this.#options;
    const started = performance.now();
    let rendered = 0;
    try {
      const urls = [
        ...LANGUAGES.map((language) => `/${language}/home`),
        "/sitemap.xml",
        ...LANGUAGES.map((language) => `/sitemaps/${language}-1.xml`),
        "/tags",
        "/people",
      ];
      for (const language of LANGUAGES) {
        const newest = await store.listPosts({ language }, 1, WARM_POSTS);
        urls.push(...newest.posts.map((post) => postPath(post.language, post.slug)));
      }
      if (homePage && (await this.#idle())) {
        await homePage({ headers: {} }, { origin, day: this.#options.today(), requestId: randomUUID() });
        rendered++;
      }
      for (const url of urls) {
        if (!(await this.#idle())) {
          logger.info("warm-up stopped: visitors keep the server busy", { rendered });
          return;
        }
        if (!(await this.settle())) return;
        const target = { url, search: false, cacheable: true };
        if (this.lookup(origin, target)) continue;
        await this.#refresh({ key: `${origin}${url}`, origin, url, search: false });
        rendered++;
      }
      logger.info("warmed up", { pages: rendered, ms: Math.round(performance.now() - started) });
    } catch (error) {
      logger.warn("warm-up failed", { error: (error as Error).message });
    }
  }

  /**
   * Waits for a quiet moment: no visitor's render under way and the event
   * loop mostly idle over the last IDLE_LOOK_MS; false after
   * WARM_UP_PATIENCE_MS without one.
   */
  async #idle(): Promise<boolean> {
    const until = performance.now() + WARM_UP_PATIENCE_MS;
    for (;;) {
      const before = performance.eventLoopUtilization();
      await new Promise((resolve) => setTimeout(resolve, IDLE_LOOK_MS));
      const { utilization } = performance.eventLoopUtilization(before);
      if (this.activeRenders === 0 && !this.#draining && utilization < IDLE_UTILIZATION) return true;
      if (performance.now() > until) return false;
    }
  }
}

/** A cache key (origin + path) as a refresh job. */
function jobOf(key: string, search: boolean): Job | null {
  const at = key.indexOf("/", key.indexOf("://") + 3);
  if (at === -1) return null;
  return { key, origin: key.slice(0, at), url: key.slice(at), search };
}
