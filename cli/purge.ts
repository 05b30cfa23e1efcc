// The purge hook (decision 057): after a write commits, the process that
// wrote (sukti import, unpublish, delete, seed, sync) tells a shared cache in
// front of the site which tags changed, so Varnish, Fastly or Cloudflare drop
// the pages showing them. One POST to PURGE_URL per batch of tags:
//
//   POST $PURGE_URL
//   xkey-purge: t1 t2          (Varnish with varnish-modules' xkey, deploy/varnish/)
//   Surrogate-Key: t1 t2       (Fastly's purge by surrogate key)
//   Content-Type: application/json
//   {"tags":["t1","t2"]}       (Cloudflare's purge by Cache-Tag)
//
// plus the headers of PURGE_HEADERS (a token, say). A purge that fails or
// takes longer than PURGE_TIMEOUT_MS is one warning line; the write stays
// committed. With PURGE_STRICT=on the command then exits non-zero.
import type { ContentChange } from "#app/data/cache-tags.ts";
import { ALL_TAG } from "#app/data/cache-tags.ts";
import type { AfterCommit } from "#app/data/writes.ts";
import { UserError } from "#cli/errors.ts";

/** Tags per request: Cloudflare takes up to 30 per call, and a Varnish header line stays short. */
export const PURGE_BATCH = 30;
/** Past this many tags a purge names `all` instead (the servers drop every page too). */
export const PURGE_MAX_TAGS = 300;
const DEFAULT_TIMEOUT_MS = 5000;

export interface PurgeOptions {
  url: string;
  headers: Record<string, string>;
  timeoutMs: number;
  strict: boolean;
  /** Where the warning line goes (stderr). */
  warn: (line: string) => void;
}

/** PURGE_HEADERS: a JSON object, or `Name: value` lines. */
export function parsePurgeHeaders(text: string | undefined): Record<string, string> {
  if (!text?.trim()) return {};
  if (text.trim().startsWith("{")) {
    const parsed = JSON.parse(text) as unknown;
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed))
      throw new UserError("PURGE_HEADERS: give a JSON object of header names and values");
    return Object.fromEntries(Object.entries(parsed).map(([name, value]) => [name, String(value)]));
  }
  const headers: Record<string, string> = {};
  for (const line of text.split(/\r?\n/)) {
    if (!line.trim()) continue;
    const at = line.indexOf(":");
    if (at <= 0) throw new UserError(`PURGE_HEADERS: "${line.slice(0, 40)}" is not "Name: value"`);
    headers[line.slice(0, at).trim()] = line.slice(at + 1).trim();
  }
  return headers;
}

/** The purge settings of the environment, or null when PURGE_URL is not set. */
export function purgeOptionsFromEnv(
  env: NodeJS.ProcessEnv,
  warn: (line: string) => void = (line) => process.stderr.write(`${line}\n`),
): PurgeOptions | null {
  const url = env.PURGE_URL?.trim();
  if (!url) return null;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new UserError(`PURGE_URL: "${url}" is not an http(s) address`);
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:")
    throw new UserError(`PURGE_URL: "${url}" is not an http(s) address`);
  const timeout = Number(env.PURGE_TIMEOUT_MS ?? DEFAULT_TIMEOUT_MS);
  if (!Number.isInteger(timeout) || timeout <= 0)
    throw new UserError(`PURGE_TIMEOUT_MS: "${env.PURGE_TIMEOUT_MS}" is not a whole number of milliseconds`);
  return {
    url,
    headers: parsePurgeHeaders(env.PURGE_HEADERS),
    timeoutMs: timeout,
    strict: env.PURGE_STRICT === "on",
    warn,
  };
}

/** The address without credentials or query, for messages. */
function shown(url: string): string {
  const parsed = new URL(url);
  return `${parsed.origin}${parsed.pathname}`;
}

/**
 * POSTs the tags to the purge endpoint, PURGE_BATCH at a time (or `all` when
 * there are more than PURGE_MAX_TAGS). True when every request answered 2xx.
 */
export async function purgeTags(tags: readonly string[], options: PurgeOptions): Promise<boolean> {
  const unique = [...new Set(tags)];
  if (unique.length === 0) return true;
  const named = unique.length > PURGE_MAX_TAGS || unique.includes(ALL_TAG) ? [ALL_TAG] : unique;
  for (let at = 0; at < named.length; at += PURGE_BATCH) {
    const batch = named.slice(at, at + PURGE_BATCH);
    const list = batch.join(" ");
    let problem: string | null = null;
    try {
      const response = await fetch(options.url, {
        method: "POST",
        headers: {
          ...options.headers,
          "xkey-purge": list,
          "Surrogate-Key": list,
          "Content-Type": "application/json",
        },
        body: JSON.stringify({ tags: batch }),
        signal: AbortSignal.timeout(options.timeoutMs),
        redirect: "manual",
      });
      await response.arrayBuffer().catch(() => undefined);
      if (response.status < 200 || response.status > 299) problem = `it answered ${response.status}`;
    } catch (error) {
      const cause = (error as { cause?: { code?: string; message?: string } }).cause;
      problem =
        (error as Error).name === "TimeoutError"
          ? `no answer within ${options.timeoutMs} ms`
          : (cause?.code ?? cause?.message ?? (error as Error).message);
    }
    if (problem !== null) {
      options.warn(
        `sukti: warning: purging ${named.length} cache tag(s) at ${shown(options.url)} failed (${problem}); the write is committed, and shared caches may show the old pages until their s-maxage`,
      );
      return false;
    }
  }
  return true;
}

/**
 * The hook the `sukti` command's writes call after each commit: purges the
 * changed tags when PURGE_URL is set; with PURGE_STRICT=on a failed purge
 * ends the command with an error (after the write, which stays committed).
 */
export function purgeHook(env: NodeJS.ProcessEnv): AfterCommit | undefined {
  const options = purgeOptionsFromEnv(env);
  if (!options) return undefined;
  const repeatMs = purgeRepeatMs(env);
  return async (changes: ContentChange[]) => {
    const tags = changes.flatMap((change) => change.tags);
    let ok = await purgeTags(tags, options);
    if (repeatMs > 0) {
      // Another node may have answered the cache with the old page before the
      // write's notification reached it: purged again once every node has it.
      await new Promise((resolve) => setTimeout(resolve, repeatMs));
      ok = (await purgeTags(tags, options)) && ok;
    }
    if (!ok && options.strict)
      throw new UserError("the write is committed but the shared cache was not purged (PURGE_STRICT=on)");
  };
}

/**
 * PURGE_REPEAT_MS: how long after the first purge a second one is sent. On
 * PostgreSQL (several nodes, each told of a write by notification, or by its
 * poll within half a second) 2000 by default; on SQLite (one machine, whose
 * servers see a write on their next request) 0, none.
 */
export function purgeRepeatMs(env: NodeJS.ProcessEnv): number {
  const given = env.PURGE_REPEAT_MS?.trim();
  if (given) {
    const ms = Number(given);
    if (!Number.isInteger(ms) || ms < 0 || ms > 60_000)
      throw new UserError(
        `PURGE_REPEAT_MS: "${given.slice(0, 40)}" is not a whole number of milliseconds (0 to 60000)`,
      );
    return ms;
  }
  return /^postgres(ql)?:/i.test(env.DATABASE_URL ?? "") ? 2000 : 0;
}
