// Search is the one page whose cost a visitor chooses (it is never cached, and
// SQLite runs it on the event loop), so a flood of searches could starve every
// other page. Two bounds (docs/decisions/034-the-site-knows-its-own-origin.md):
// - per client, at most PER_CLIENT searches in flight: more at once get 429.
//   A client waiting for each answer before asking again is never refused,
//   however fast it goes; the bound below keeps it from starving others.
// - per process, at most MAX_RUNNING searches render at once; the rest wait in
//   line (at most MAX_QUEUED, at most MAX_WAIT_MS) or get 503.
// Both answer with Retry-After. SEARCH_LIMITS=off turns them off.

export interface SearchLimitOptions {
  maxRunning?: number;
  maxQueued?: number;
  maxWaitMs?: number;
  perClient?: number;
}

export type Admission =
  | { ok: true; release: () => void }
  | { ok: false; status: 429 | 503; retryAfterSeconds: number };

export class SearchLimiter {
  readonly #maxRunning: number;
  readonly #maxQueued: number;
  readonly #maxWaitMs: number;
  readonly #perClient: number;
  #running = 0;
  readonly #queue: { start: () => void; timer: NodeJS.Timeout }[] = [];
  readonly #inFlight = new Map<string, number>();

  constructor({ maxRunning = 2, maxQueued = 32, maxWaitMs = 2_000, perClient = 4 }: SearchLimitOptions = {}) {
    this.#maxRunning = maxRunning;
    this.#maxQueued = maxQueued;
    this.#maxWaitMs = maxWaitMs;
    this.#perClient = perClient;
  }

  /** Waits for a turn; the caller must call `release` once its search is answered. */
  async admit(client: string): Promise<Admission> {
    const mine = this.#inFlight.get(client) ?? 0;
    if (mine >= this.#perClient) return { ok: false, status: 429, retryAfterSeconds: 1 };
    if (this.#running >= this.#maxRunning) {
      if (this.#queue.length >= this.#maxQueued) return { ok: false, status: 503, retryAfterSeconds: 2 };
      this.#inFlight.set(client, mine + 1);
      const started = await new Promise<boolean>((resolve) => {
        const entry = {
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
      });
      if (!started) {
        this.#leave(client);
        return { ok: false, status: 503, retryAfterSeconds: 2 };
      }
    } else {
      this.#inFlight.set(client, mine + 1);
      this.#running++;
    }
    let released = false;
    return {
      ok: true,
      release: () => {
        if (released) return;
        released = true;
        this.#leave(client);
        const next = this.#queue.shift();
        // The slot passes straight to the next in line.
        if (next) next.start();
        else this.#running--;
      },
    };
  }

  #leave(client: string) {
    const left = (this.#inFlight.get(client) ?? 1) - 1;
    if (left > 0) this.#inFlight.set(client, left);
    else this.#inFlight.delete(client);
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
  const v4 = /^(?:::ffff:)?(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(ip);
  if (v4) return v4[1]!;
  if (!ip.includes(":")) return ip;
  const [head = "", tail = ""] = ip.split("::");
  const groups = [...head.split(":").filter(Boolean)];
  const tailGroups = tail.split(":").filter(Boolean);
  while (groups.length + tailGroups.length < 8) groups.push("0");
  return [...groups, ...tailGroups].slice(0, 4).join(":").toLowerCase();
}
