// A small client for a WordPress site's REST API (`sukti sync`, decision 053):
// Node's fetch, one request at a time, a timeout per request, a bound on every
// answer's size, retries with backoff on 429 (honouring Retry-After, capped),
// 5xx, timeouts and lost connections, redirects followed only within the
// hosts allowed. The API is found at /wp-json/ (pretty permalinks) or
// /?rest_route=/ (plain ones).
import { UserError } from "#cli/errors.ts";

export const USER_AGENT = "sukti-sync/1 (+https://github.com/sukti; WordPress REST sync)";

export interface ClientOptions {
  /** Application Password (Basic auth), sent to the site's own host only. */
  auth?: { user: string; password: string };
  /** One request, answer included. */
  timeoutMs: number;
  /** Tries per request before giving up (1 = no retry). */
  attempts: number;
  /** First wait before a retry, doubled each time, at most maxBackoffMs. */
  backoffMs: number;
  maxBackoffMs: number;
  /** A Retry-After longer than this is cut to it. */
  maxRetryAfterMs: number;
  /** An answer larger than this is refused (REST pages of 100 posts with their content). */
  maxResponseBytes: number;
  /** Told of each retry, with a line saying why (sync counts them; SUKTI_DEBUG prints them). */
  log: (line: string) => void;
  /** Stops waits and requests (SIGTERM, SIGINT). */
  signal?: AbortSignal;
}

export const DEFAULT_CLIENT_OPTIONS: ClientOptions = {
  timeoutMs: 30_000,
  attempts: 5,
  backoffMs: 1_000,
  maxBackoffMs: 30_000,
  maxRetryAfterMs: 120_000,
  maxResponseBytes: 32 * 1024 * 1024,
  log: () => {},
};

const MAX_REDIRECTS = 5;
/** Pages followed at most (100 posts each: a million posts). */
const MAX_PAGES = 10_000;

/** An HTTP answer the client will not retry (4xx but 408/429): the caller may act on `status`. */
export class HttpError extends UserError {
  readonly status: number;
  constructor(message: string, status: number) {
    super(message);
    this.status = status;
  }
}

/** A request given up: retries spent, or something never worth retrying. */
export class FetchError extends UserError {}

export interface Answer {
  status: number;
  headers: Headers;
  body: Buffer;
  url: URL;
}

export interface RequestOptions {
  /** Hosts a redirect may lead to (default: the request's own). */
  hosts?: ReadonlySet<string>;
  maxBytes?: number;
  /** Checked on the headers before the body is read: a message refuses the answer (not retried). */
  check?: (response: Response) => string | null;
  /** Sends the Application Password (only ever to the site's host). */
  auth?: boolean;
}

class TooLarge extends Error {}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/** Retry-After as milliseconds (seconds or an HTTP date), null when absent or unreadable. */
export function retryAfterMs(value: string | null, now = Date.now()): number | null {
  if (value === null || value.trim() === "") return null;
  if (/^\s*\d+\s*$/.test(value)) return Number(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}

/** The body, read as it comes, refused past `max` bytes. */
async function readBounded(response: Response, max: number): Promise<Buffer> {
  const declared = Number(response.headers.get("content-length"));
  if (Number.isFinite(declared) && declared > max) {
    await response.body?.cancel().catch(() => {});
    throw new TooLarge();
  }
  const chunks: Buffer[] = [];
  let total = 0;
  if (!response.body) return Buffer.alloc(0);
  const reader = response.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > max) {
      await reader.cancel().catch(() => {});
      throw new TooLarge();
    }
    chunks.push(Buffer.from(value));
  }
  return Buffer.concat(chunks);
}

function describeUrl(url: URL): string {
  const shown = `${url.origin}${url.pathname}${url.search}`;
  return shown.length > 160 ? `${shown.slice(0, 159)}…` : shown;
}

/** Why a fetch failed, in a few words: "connection refused", "timed out after 30 s". */
function networkReason(error: unknown, timeoutMs: number): string {
  const err = error as { name?: string; cause?: { code?: string; message?: string }; message?: string };
  if (err?.name === "TimeoutError" || err?.name === "AbortError")
    return `timed out after ${timeoutMs / 1000} s`;
  const code = err?.cause?.code;
  if (code === "ECONNREFUSED") return "connection refused";
  if (code === "ECONNRESET" || code === "UND_ERR_SOCKET") return "connection reset";
  if (code === "ENOTFOUND" || code === "EAI_AGAIN") return "host not found";
  return err?.cause?.message ?? err?.message ?? String(error);
}

export class WordPressClient {
  readonly site: URL;
  readonly options: ClientOptions;
  /** "pretty": /wp-json/…; "plain": /?rest_route=/… (found by discover()). */
  #flavour: "pretty" | "plain" = "pretty";

  constructor(site: URL, options: Partial<ClientOptions> = {}) {
    this.site = site;
    this.options = { ...DEFAULT_CLIENT_OPTIONS, ...options };
  }

  /** The address of a REST route ("/wp/v2/posts") with its query. */
  url(route: string, params: Record<string, string | number> = {}): URL {
    const base = this.site.href.endsWith("/") ? this.site.href : `${this.site.href}/`;
    const url =
      this.#flavour === "pretty" ? new URL(`wp-json${route}`, base) : new URL(`?rest_route=${route}`, base);
    for (const [key, value] of Object.entries(params)) url.searchParams.set(key, String(value));
    return url;
  }

  /**
   * Finds the API (/wp-json/, else /?rest_route=/) and whether the posts route
   * takes modified_after (WordPress 5.7+). A site with neither is refused in one line.
   */
  async discover(): Promise<{ modifiedAfter: boolean; name: string }> {
    let lastError: unknown = null;
    for (const flavour of ["pretty", "plain"] as const) {
      this.#flavour = flavour;
      try {
        const index = (await this.getJson(this.url("/"))).body as {
          namespaces?: unknown;
          name?: unknown;
          routes?: Record<string, { endpoints?: { methods?: string[]; args?: Record<string, unknown> }[] }>;
        };
        if (!index || !Array.isArray(index.namespaces)) continue;
        if (!index.namespaces.includes("wp/v2")) {
          lastError = new Error("it has a REST API but not WordPress's wp/v2 (too old or disabled)");
          break;
        }
        const posts = index.routes?.["/wp/v2/posts"];
        const modifiedAfter =
          posts?.endpoints?.some((endpoint) => endpoint.args && "modified_after" in endpoint.args) ?? false;
        return { modifiedAfter, name: typeof index.name === "string" ? index.name : "" };
      } catch (error) {
        if (this.options.signal?.aborted) throw error;
        lastError = error;
        // Retries spent on a server that is down: trying the other address would only wait again.
        if (error instanceof FetchError && / attempts? failed$/.test(error.message)) break;
      }
    }
    const why = lastError instanceof Error ? `: ${lastError.message}` : "";
    throw new FetchError(
      `${this.site.href} shows no WordPress REST API at /wp-json/ or /?rest_route=/${why}`,
    );
  }

  /** A JSON answer (retried as request() retries). */
  async getJson(url: URL): Promise<{ body: unknown; headers: Headers }> {
    const answer = await this.request(url, {
      auth: true,
      check: (response) => {
        const type = response.headers.get("content-type") ?? "";
        return /json/i.test(type) ? null : `answered ${type || "no content type"}, not JSON`;
      },
    });
    try {
      return {
        body: JSON.parse(answer.body.toString("utf8").replace(/^\uFEFF/, "")),
        headers: answer.headers,
      };
    } catch {
      throw new FetchError(`GET ${describeUrl(url)}: the answer is not valid JSON`);
    }
  }

  /** Every item of a collection route, page by page (per_page=100, X-WP-TotalPages). */
  async *pages(route: string, params: Record<string, string | number>): AsyncGenerator<unknown[]> {
    let total = 1;
    for (let page = 1; page <= total && page <= MAX_PAGES; page++) {
      const { body, headers } = await this.getJson(this.url(route, { ...params, per_page: 100, page }));
      if (!Array.isArray(body)) throw new FetchError(`GET ${describeUrl(this.url(route))}: not a list`);
      const pages = Number(headers.get("x-wp-totalpages"));
      total = Number.isInteger(pages) && pages > 0 ? pages : body.length === 100 ? page + 1 : page;
      yield body;
    }
  }

  /**
   * One GET, retried on 429 (after Retry-After, capped), 5xx, 408, timeouts
   * and connection errors with backoff; other 4xx throw HttpError at once.
   */
  async request(url: URL, options: RequestOptions = {}): Promise<Answer> {
    const { attempts, backoffMs, maxBackoffMs, maxRetryAfterMs, timeoutMs, signal } = this.options;
    const maxBytes = options.maxBytes ?? this.options.maxResponseBytes;
    let wait = backoffMs;
    for (let attempt = 1; ; attempt++) {
      let retryIn: number;
      let reason: string;
      try {
        return await this.#once(url, options, maxBytes);
      } catch (error) {
        if (signal?.aborted) throw signal.reason;
        if (error instanceof HttpError || error instanceof FetchError) throw error;
        if (error instanceof TooLarge) {
          throw new FetchError(
            `GET ${describeUrl(url)}: the answer is larger than ${maxBytes / 1024 / 1024} MB`,
          );
        }
        const status = (error as { status?: number }).status;
        if (status !== undefined) {
          reason = `HTTP ${status}`;
          const after =
            status === 429 || status === 503 ? (error as { retryAfter?: number | null }).retryAfter : null;
          retryIn = after != null ? Math.min(after, maxRetryAfterMs) : wait;
        } else {
          reason = networkReason(error, timeoutMs);
          retryIn = wait;
        }
      }
      if (attempt >= attempts) {
        throw new FetchError(
          `GET ${describeUrl(url)}: ${reason}, ${attempts} attempt${attempts === 1 ? "" : "s"} failed`,
        );
      }
      this.options.log(
        `sync: GET ${describeUrl(url)}: ${reason}; retrying in ${Math.ceil(retryIn / 100) / 10} s`,
      );
      await sleep(retryIn, signal);
      wait = Math.min(wait * 2, maxBackoffMs);
    }
  }

  async #once(start: URL, options: RequestOptions, maxBytes: number): Promise<Answer> {
    const hosts = options.hosts ?? new Set([start.host]);
    let url = start;
    for (let hop = 0; ; hop++) {
      const controller = new AbortController();
      const timer = setTimeout(
        () => controller.abort(new DOMException("timed out", "TimeoutError")),
        this.options.timeoutMs,
      );
      const stop = () => controller.abort(this.options.signal?.reason);
      this.options.signal?.addEventListener("abort", stop, { once: true });
      try {
        const headers: Record<string, string> = {
          "User-Agent": USER_AGENT,
          Accept: "application/json, image/*;q=0.9, */*;q=0.1",
        };
        const auth = this.options.auth;
        if (options.auth && auth && url.host === this.site.host) {
          headers.Authorization = `Basic ${Buffer.from(`${auth.user}:${auth.password}`).toString("base64")}`;
        }
        const response = await fetch(url, { headers, redirect: "manual", signal: controller.signal });
        if (response.status >= 300 && response.status < 400 && response.headers.has("location")) {
          await response.body?.cancel().catch(() => {});
          const next = new URL(response.headers.get("location") ?? "", url);
          if (!/^https?:$/.test(next.protocol) || !hosts.has(next.host) || hop >= MAX_REDIRECTS) {
            throw new FetchError(
              `GET ${describeUrl(start)}: redirected to ${describeUrl(next)}, ${hop >= MAX_REDIRECTS ? "too many redirects" : "another host"}; not followed`,
            );
          }
          url = next;
          continue;
        }
        if (response.status === 429 || response.status === 408 || response.status >= 500) {
          await response.body?.cancel().catch(() => {});
          throw Object.assign(new Error(`HTTP ${response.status}`), {
            status: response.status,
            retryAfter: retryAfterMs(response.headers.get("retry-after")),
          });
        }
        if (response.status >= 400) {
          await response.body?.cancel().catch(() => {});
          const hint =
            response.status === 401 || response.status === 403
              ? " (a private site needs --user and SUKTI_WP_PASSWORD, an Application Password)"
              : "";
          throw new HttpError(`GET ${describeUrl(url)}: HTTP ${response.status}${hint}`, response.status);
        }
        const refused = options.check?.(response) ?? null;
        if (refused) {
          await response.body?.cancel().catch(() => {});
          throw new FetchError(`GET ${describeUrl(url)}: ${refused}`);
        }
        const body = await readBounded(response, maxBytes);
        return { status: response.status, headers: response.headers, body, url };
      } finally {
        clearTimeout(timer);
        this.options.signal?.removeEventListener("abort", stop);
      }
    }
  }
}
