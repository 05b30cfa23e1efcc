// Search is the one page whose cost a visitor chooses: it is never cached,
// and SQLite runs it on the event loop, so a flood of searches could starve
// every other page. A page being rendered does not yield until it is done, so
// requests are handled one after another; fairness comes from *when* a search
// may start. Here (docs/decisions/034-safe-to-face-the-internet.md):
// - a search never starts on the turn its request arrived: it waits for the
//   event loop's next check phase, so every request that arrived with it (a
//   page, other clients' searches) is read and answered or queued first;
// - at most MAX_RUNNING searches start per turn, the rest wait in line (at
//   most MAX_QUEUED, for at most MAX_WAIT_MS) or get 503; the next to start
//   is the first in line of a client with the fewest searches waiting or
//   running, so a visitor's one search is not kept behind another's four;
// - a client has at most PER_CLIENT searches waiting or running; more get 429.
//   A client that waits for each answer before asking again is never refused.
// Both refusals carry Retry-After and are sent after REFUSAL_DELAY_MS, so a
// client that asks again at once cannot turn the saved CPU into refusals.
// SEARCH_LIMITS=off turns this off.
import { firstSegmentsOf } from "#app/route-table.ts";

export const REFUSAL_DELAY_MS = 1_000;

export interface SearchLimitOptions {
  maxRunning?: number;
  maxQueued?: number;
  maxWaitMs?: number;
  perClient?: number;
}

export type Admission =
  | { ok: true; release: () => void }
  | { ok: false; status: 429 | 503; retryAfterSeconds: number };

interface Waiting {
  client: string;
  start: () => void;
  timer: NodeJS.Timeout;
}

export class SearchLimiter {
  readonly #maxRunning: number;
  readonly #maxQueued: number;
  readonly #maxWaitMs: number;
  readonly #perClient: number;
  #running = 0;
  #pumpScheduled = false;
  readonly #queue: Waiting[] = [];
  readonly #perClientCount = new Map<string, number>();

  constructor({ maxRunning = 2, maxQueued = 32, maxWaitMs = 2_000, perClient = 4 }: SearchLimitOptions = {}) {
    this.#maxRunning = maxRunning;
    this.#maxQueued = maxQueued;
    this.#maxWaitMs = maxWaitMs;
    this.#perClient = perClient;
  }

  /** Waits for a turn; on `ok`, the caller must call `release` once its search is answered. */
  async admit(client: string): Promise<Admission> {
    const mine = this.#perClientCount.get(client) ?? 0;
    if (mine >= this.#perClient) return { ok: false, status: 429, retryAfterSeconds: 1 };
    if (this.#queue.length >= this.#maxQueued) return { ok: false, status: 503, retryAfterSeconds: 2 };
    this.#perClientCount.set(client, mine + 1);
    const started = await new Promise<boolean>((resolve) => {
      const entry: Waiting = {
        client,
        start: () => {
          clearTimeout(entry.timer);
          resolve(true);
        },
        timer: setTimeout(() => {
          this.#queue.splice(this.#queue.indexOf(entry), 1);
          resolve(false);
        }, this.#maxWaitMs),
      };
      this.#queue.push(entry);
      this.#schedulePump();
    });
    if (!started) {
      this.#leave(client);
      return { ok: false, status: 503, retryAfterSeconds: 2 };
    }
    let released = false;
    return {
      ok: true,
      release: () => {
        if (released) return;
        released = true;
        this.#leave(client);
        this.#running--;
        this.#schedulePump();
      },
    };
  }

  /** Starts waiting searches on the next check phase, after the I/O that is ready now. */
  #schedulePump() {
    if (this.#pumpScheduled) return;
    this.#pumpScheduled = true;
    setImmediate(() => {
      this.#pumpScheduled = false;
      while (this.#running < this.#maxRunning && this.#queue.length > 0) {
        // The first in line of the clients with the fewest searches waiting
        // or running: one client's line never holds up another's one search.
        let at = 0;
        let fewest = Number.POSITIVE_INFINITY;
        this.#queue.forEach(({ client }, i) => {
          const mine = this.#perClientCount.get(client) ?? 1;
          if (mine < fewest) [at, fewest] = [i, mine];
        });
        const [next] = this.#queue.splice(at, 1);
        if (next === undefined) break;
        this.#running++;
        next.start();
      }
    });
  }

  #leave(client: string) {
    const left = (this.#perClientCount.get(client) ?? 1) - 1;
    if (left > 0) this.#perClientCount.set(client, left);
    else this.#perClientCount.delete(client);
  }

  get running() {
    return this.#running;
  }

  get queued() {
    return this.#queue.length;
  }
}

/** One key per client: an IPv4 address, or an IPv6 address's /64 (one home or phone network). */
export function clientKey(ip: string | undefined): string {
  if (!ip) return "unknown";
  const v4 = /^(?:::ffff:)?(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(ip)?.[1];
  if (v4 !== undefined) return v4;
  if (!ip.includes(":")) return ip;
  const [head = "", tail = ""] = ip.split("::");
  const groups = head.split(":").filter(Boolean);
  const tailGroups = tail.split(":").filter(Boolean);
  while (groups.length + tailGroups.length < 8) groups.push("0");
  return [...groups, ...tailGroups].slice(0, 4).join(":").toLowerCase();
}

/**
 * Search requests take turns with everything else: each waits for a check
 * phase of the event loop and at most one runs per turn, so a burst of them
 * (200 clients asking at once, or 200 refusals falling due together) is
 * spread over as many turns, and the pages asked between them (read in the
 * poll phase of each turn) are answered first instead of after the burst.
 * Before this, such a burst held the event loop for ~0.5 ms a request
 * through the whole middleware chain: 100–300 ms for the pages behind it.
 */
export class SearchTurns {
  readonly #waiting: (() => void)[] = [];
  #scheduled = false;

  /** Runs `task` on a later turn, after those given before it. */
  run(task: () => void) {
    this.#waiting.push(task);
    this.#schedule();
  }

  #schedule() {
    if (this.#scheduled || this.#waiting.length === 0) return;
    this.#scheduled = true;
    setImmediate(() => {
      this.#scheduled = false;
      const task = this.#waiting.shift();
      // The next one on the next turn: an immediate set in this check phase runs in the next.
      this.#schedule();
      task?.();
    });
  }

  get waiting() {
    return this.#waiting.length;
  }
}

/**
 * A search with text, as the request line gives it (letter case is redirected
 * later, so any case): the routes app/route-table.ts gates as searches.
 */
export const SEARCH_REQUEST = new RegExp(
  `^/(?:${firstSegmentsOf((route) => route.gate === "search")})/[^/?]`,
  "i",
);
