// Sending the daily quote (decision 060). Each subscriber gets
// their language's quote of the day (the site's day, app/content/daily.ts)
// at their hour in their zone: a tick every PUSH_TICK_MS looks, per zone,
// for subscribers whose hour it is there and who have no send for that local
// day. `sukti push send` sends to every subscriber of a language now.
//
// At most once: the send row (push_sends) is inserted before the request
// goes out, and an insert that finds one sends nothing; a request that may
// have reached the push service is never made again. A crash leaves the rest
// without rows, and the next sender (a restart, another node) sends them.
// One sender per site: the tick first takes a lease in the database.
import { randomUUID } from "node:crypto";
import webpush from "web-push";
import { dailyOffset, dayNumber } from "#app/content/daily.ts";
import { htmlToText } from "#app/content/html-text.ts";
import { LANG_TAG, type Language, postPath } from "#app/content/languages.ts";
import { personName } from "#app/content/people.ts";
import {
  openPushStore,
  type PushRun,
  type PushStore,
  pushDatabaseUrl,
  type RunCounts,
  type StoredSubscription,
  type VapidKeys,
} from "#app/data/push-store.server.ts";
import type { ContentStore } from "#app/data/store.ts";
import { currentSite } from "#app/site.ts";
import type { Logger } from "../logger.ts";
import { LookupError, resolveEndpoint } from "./allow-list.ts";
import { makeVapidKeys, type PushConfig } from "./config.ts";
import { PostError, postToEndpoint } from "./post.ts";

/** Tries a send gets (the first included) when the push service says 429 or 5xx. */
export const MAX_ATTEMPTS = 5;
/** Longest wait before a retry; a Retry-After past it gives up. */
export const MAX_RETRY_WAIT_S = 3600;
/** A push request's deadline. */
const TIMEOUT_MS = 15_000;
/** Subscribers read per query. */
const PAGE = 200;
/** Send rows kept this long (a day's slot never comes back). */
const KEEP_MS = 8 * 86_400_000;
/** A run whose heartbeat is older than this was left by a sender that died. */
const STALE_MS = 120_000;

export interface Notification {
  title: string;
  body: string;
  url: string;
  lang: string;
  tag: string;
}

/** Why sending cannot start, as one line; null when it can. */
export function cannotSend(config: PushConfig): string | null {
  if (!config.publicUrl)
    return "PUBLIC_URL is not set: a notification needs the site's address to link to (set PUBLIC_URL)";
  if (!config.subject)
    return "VAPID_SUBJECT is not set: push services want a contact (set VAPID_SUBJECT=mailto:you@example.com, or an https: PUBLIC_URL)";
  return null;
}

/** The opening words of a text, at most `max` characters, cut at a word. */
export function openingWords(text: string, max = 120): string {
  const flat = text.replace(/\s+/g, " ").trim();
  if (flat.length <= max) return flat;
  const cut = flat.slice(0, max);
  const space = cut.lastIndexOf(" ");
  return `${(space > max / 2 ? cut.slice(0, space) : cut).replace(/[\s,;:—–-]+$/u, "")}…`;
}

/** The quote of the day of `language` on the site's day of `now`, as a notification; null when it has none. */
export async function dailyNotification(
  content: ContentStore,
  language: Language,
  publicUrl: string,
  now: number,
): Promise<Notification | null> {
  const count = await content.countPosts(language);
  if (count === 0) return null;
  const summary = await content.postAt(
    language,
    dailyOffset(dayNumber(new Date(now), currentSite().timeZone), count),
  );
  // Published posts only: getPost returns nothing else.
  const post = summary ? await content.getPost(language, summary.slug) : null;
  if (!post) return null;
  const opening = openingWords(htmlToText(post.content));
  const names = post.source?.person?.names;
  const person = names ? personName(names, language) : "";
  return {
    title: post.title,
    body: person ? `${opening}\n— ${person}` : opening,
    url: new URL(postPath(language, post.slug), publicUrl).href,
    lang: LANG_TAG[language],
    tag: `sukti-daily-${language}`,
  };
}

/** The local date (YYYY-MM-DD) and hour (0–23) in `timeZone` at `now`. */
export function localHour(timeZone: string, now: number): { day: string; hour: number } {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat("en-CA", {
      timeZone,
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      hourCycle: "h23",
    })
      .formatToParts(now)
      .map((part) => [part.type, part.value]),
  );
  return { day: `${parts.year}-${parts.month}-${parts.day}`, hour: Number(parts.hour) };
}

/** Runs `work` on each item, at most `limit` at once. */
async function eachBounded<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>) {
  let next = 0;
  const lanes = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const item = items[next++] as T;
      await work(item);
    }
  });
  await Promise.all(lanes);
}

export interface SenderOptions {
  content: ContentStore;
  push: PushStore;
  config: PushConfig;
  logger: Logger;
  now?: () => number;
}

export class PushSender {
  readonly #content: ContentStore;
  readonly #push: PushStore;
  readonly #config: PushConfig;
  readonly #logger: Logger;
  readonly #now: () => number;
  readonly #holder = randomUUID();
  #keys: VapidKeys | null = null;
  #quotes = new Map<string, Promise<Notification | null>>();
  #timer: NodeJS.Timeout | null = null;
  #ticking: Promise<void> | null = null;
  #stopped = false;
  #prunedAt = 0;
  #warned = false;

  constructor(options: SenderOptions) {
    this.#content = options.content;
    this.#push = options.push;
    this.#config = options.config;
    this.#logger = options.logger;
    this.#now = options.now ?? Date.now;
  }

  /** The scheduler: a tick now and every PUSH_TICK_MS, never two at once. */
  start() {
    const tick = () => {
      if (this.#ticking || this.#stopped) return;
      this.#ticking = this.tick()
        .catch((error: Error) =>
          this.#logger.warn("push: the sender's tick failed", { error: error.message }),
        )
        .finally(() => {
          this.#ticking = null;
        });
    };
    tick();
    this.#timer = setInterval(tick, this.#config.tickMs);
    this.#timer.unref();
  }

  async stop() {
    this.#stopped = true;
    if (this.#timer) clearInterval(this.#timer);
    await this.#ticking;
    await this.#push.releaseLease(this.#holder).catch(() => {});
  }

  /** One look: subscribers due in every zone, sends due for a retry, runs a dead sender left. */
  async tick(): Promise<void> {
    const now = this.#now();
    const why = cannotSend(this.#config);
    if (why) {
      if (!this.#warned && (await this.#push.count()) > 0) {
        this.#logger.warn("push: not sending", { reason: why });
        this.#warned = true;
      }
      return;
    }
    const leaseMs = Math.max(60_000, 3 * this.#config.tickMs);
    if (!(await this.#push.lease(this.#holder, now, leaseMs))) return;
    this.#quotes = new Map();
    for (const run of await this.#push.staleRuns(now - STALE_MS)) {
      if (run.kind === "manual") {
        this.#logger.info("push: finishing an interrupted send", { run: run.id, language: run.language });
        await this.sendRun(run);
      } else await this.#push.endRun(run.id, "interrupted", this.#now());
    }
    let run: PushRun | null = null;
    for (const zone of await this.#push.zones()) {
      let local: { day: string; hour: number };
      try {
        local = localHour(zone, this.#now());
      } catch {
        // A zone this Node no longer knows: its subscribers wait, the others are sent.
        continue;
      }
      const slot = `day:${local.day}`;
      let after = 0;
      for (;;) {
        // A long send keeps the lease, or stops when another node has taken it.
        if (after > 0 && !(await this.#push.lease(this.#holder, this.#now(), leaseMs))) break;
        const due = await this.#push.due(zone, local.hour, slot, after, PAGE);
        if (due.length === 0) break;
        run ??= await this.#push.startRun("scheduled", "", this.#now());
        const runId = run.id;
        await eachBounded(due, this.#config.concurrency, (item) => this.#claimAndSend(item, slot, runId));
        after = (due.at(-1) as StoredSubscription).id;
        if (this.#stopped) break;
      }
    }
    await this.#retries();
    if (run) {
      await this.#push.endRun(run.id, "done", this.#now());
      const ended = await this.#push.run(run.id);
      this.#logger.info("push: sent the daily quote", {
        sent: ended?.sent,
        removed: ended?.removed,
        retried: ended?.retried,
        failed: ended?.failed,
      });
    }
    if (this.#now() - this.#prunedAt > 3_600_000) {
      this.#prunedAt = this.#now();
      await this.#push.prune(this.#now() - KEEP_MS);
    }
  }

  /**
   * `sukti push send`: to every subscriber of `language` ('' for all) now,
   * resuming an unfinished send of the same language if one was interrupted;
   * returns once every send is settled (retries included).
   */
  async sendNow(language: Language | ""): Promise<{ run: PushRun; resumed: boolean }> {
    const unfinished = await this.#push.unfinishedRun(language);
    const run = unfinished ?? (await this.#push.startRun("manual", language, this.#now()));
    this.#quotes = new Map();
    return { run: await this.sendRun(run), resumed: unfinished !== null };
  }

  /** A manual run's subscribers not yet sent, then its retries until none is left. */
  async sendRun(run: PushRun): Promise<PushRun> {
    const slot = `run:${run.id}`;
    let after = 0;
    for (;;) {
      const members = await this.#push.runMembers(run.language, run.lastSubscription, slot, after, PAGE);
      if (members.length === 0) break;
      await eachBounded(members, this.#config.concurrency, (item) => this.#claimAndSend(item, slot, run.id));
      after = (members.at(-1) as StoredSubscription).id;
    }
    for (;;) {
      const pending = await this.#push.pendingRetries(run.id);
      if (pending.count === 0) break;
      const wait = Math.max(0, (pending.nextAt ?? 0) - this.#now());
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, Math.min(wait, 10_000)));
      await this.#push.addToRun(run.id, {}, this.#now());
      await this.#retries(run.id);
    }
    await this.#push.endRun(run.id, "done", this.#now());
    return (await this.#push.run(run.id)) ?? run;
  }

  async #retries(runId?: number) {
    for (;;) {
      const due = await this.#push.dueRetries(this.#now(), PAGE, runId);
      if (due.length === 0) return;
      await eachBounded(due, this.#config.concurrency, async (item) => {
        if (await this.#push.claimRetry(item.id, item.slot, this.#now()))
          await this.#send(item, item.slot, item.runId, item.attempts + 1);
      });
      if (this.#stopped) return;
    }
  }

  async #claimAndSend(item: StoredSubscription, slot: string, runId: number) {
    if (this.#stopped) return;
    if (await this.#push.claim(item.id, slot, runId, this.#now())) await this.#send(item, slot, runId, 1);
  }

  #quote(language: Language): Promise<Notification | null> {
    const day = dayNumber(new Date(this.#now()), currentSite().timeZone);
    const key = `${language}:${day}`;
    let quote = this.#quotes.get(key);
    if (!quote) {
      quote = dailyNotification(this.#content, language, this.#config.publicUrl ?? "", this.#now());
      this.#quotes.set(key, quote);
    }
    return quote;
  }

  /** One claimed send: the request, then its row settled and the run counted. */
  async #send(item: StoredSubscription, slot: string, runId: number, attempt: number) {
    const settle = async (
      state: "sent" | "retry" | "failed",
      counts: RunCounts,
      nextAt: number | null = null,
    ) => {
      await this.#push.settle(item.id, slot, state, nextAt, this.#now());
      await this.#push.addToRun(runId, counts, this.#now());
    };
    const retryOrFail = async (why: string, retryAfter: number | null, reached: boolean) => {
      const wait = Math.max(retryAfter ?? 0, 2 ** (attempt - 1));
      if (attempt >= MAX_ATTEMPTS || wait > MAX_RETRY_WAIT_S || reached) {
        this.#logger.warn("push: a send failed", { run: runId, why, attempt });
        return settle("failed", { failed: 1 });
      }
      return settle("retry", { retried: 1 }, this.#now() + wait * 1000);
    };
    const subject = this.#config.subject;
    const quote = await this.#quote(item.language);
    if (!quote || !subject) return settle("failed", { failed: 1 });
    let target: Awaited<ReturnType<typeof resolveEndpoint>>;
    try {
      // Checked again at each send, and the connection made to the address checked.
      target = await resolveEndpoint(item.endpoint, this.#config.extraHosts);
    } catch (error) {
      if (error instanceof LookupError) return retryOrFail(error.message, null, false);
      throw error;
    }
    if (!target.ok) {
      this.#logger.warn("push: an endpoint is no longer allowed; not sent", {
        run: runId,
        why: target.reason,
      });
      return settle("failed", { failed: 1 });
    }
    this.#keys ??= await this.#push.keys(makeVapidKeys);
    const details = webpush.generateRequestDetails(
      { endpoint: item.endpoint, keys: { p256dh: item.p256dh, auth: item.auth } },
      JSON.stringify(quote),
      {
        vapidDetails: { subject, publicKey: this.#keys.publicKey, privateKey: this.#keys.privateKey },
        TTL: this.#config.ttl,
        urgency: "normal",
        contentEncoding: "aes128gcm",
      },
    );
    const headers = Object.fromEntries(
      Object.entries(details.headers).map(([name, value]) => [name, String(value)]),
    );
    let answer: Awaited<ReturnType<typeof postToEndpoint>>;
    try {
      answer = await postToEndpoint(target.endpoint, headers, details.body, TIMEOUT_MS);
    } catch (error) {
      // A request that may have reached the push service is not made again (at most once).
      const sent = error instanceof PostError && error.sent;
      return retryOrFail((error as Error).message, null, sent);
    }
    if (answer.status >= 200 && answer.status < 300) return settle("sent", { sent: 1 });
    if (answer.status === 404 || answer.status === 410) {
      // The subscription is gone: removed, with its send rows.
      await this.#push.remove(item.id);
      await this.#push.addToRun(runId, { removed: 1 }, this.#now());
      return;
    }
    if (answer.status === 429 || answer.status >= 500)
      return retryOrFail(`the push service answered ${answer.status}`, answer.retryAfter, false);
    // A redirect is never followed; 400, 401, 403, 413: this message will not go.
    this.#logger.warn("push: the push service refused a message", { run: runId, status: answer.status });
    return settle("failed", { failed: 1 });
  }
}

/**
 * The site's sender, in the one process that sends (the cluster's primary,
 * or the only process): opens the push store once a subscription made it
 * (SQLite: no file before the first), ticks, and stops with the process.
 */
export function startSiteSender(options: {
  databaseUrl: string;
  content: () => Promise<ContentStore>;
  config: PushConfig;
  logger: Logger;
}): { stop: () => Promise<void> } {
  let sender: PushSender | null = null;
  let push: PushStore | null = null;
  let stopped = false;
  let lastProblem = "";
  let opening = false;
  const open = async () => {
    if (sender || stopped || opening) return;
    opening = true;
    try {
      const store = await openPushStore(pushDatabaseUrl(options.databaseUrl), { create: false });
      if (!store) return;
      if (stopped) return void (await store.close());
      push = store;
      sender = new PushSender({
        content: await options.content(),
        push,
        config: options.config,
        logger: options.logger,
      });
      sender.start();
      clearInterval(opener);
    } catch (error) {
      const problem = (error as Error).message;
      if (problem !== lastProblem)
        options.logger.warn("push: cannot open the push store", { error: problem });
      lastProblem = problem;
    } finally {
      opening = false;
    }
  };
  const opener = setInterval(() => void open(), Math.max(options.config.tickMs, 1000));
  opener.unref();
  void open();
  return {
    stop: async () => {
      stopped = true;
      clearInterval(opener);
      await sender?.stop();
      await push?.close();
    },
  };
}
