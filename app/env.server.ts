import { z } from "zod";
import { DEFAULT_AUDIO_DIR } from "#app/data/audio-files.server.ts";
import { DEFAULT_DATABASE_URL } from "#app/data/open-store.server.ts";
import { DEFAULT_SYNCED_IMAGE_DIR } from "#app/data/synced-images.server.ts";

const EnvSchema = z.object({
  NODE_ENV: z.enum(["production", "development", "test"]).default("production"),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default("0.0.0.0"),
  DATABASE_URL: z.string().min(1).default(DEFAULT_DATABASE_URL),
  PUBLIC_URL: z.url().optional(),
  /** Where rendered share images are kept (created when missing). */
  SHARE_IMAGE_DIR: z.string().min(1).default("data/share-images"),
  /** Where resized copies of the site's images are kept (created when missing). */
  IMAGE_VARIANT_DIR: z.string().min(1).default("data/image-variants"),
  /** Featured images `sukti sync` downloads, served at /images/synced/ (decision 053). */
  SYNCED_IMAGE_DIR: z.string().min(1).default(DEFAULT_SYNCED_IMAGE_DIR),
  /** The site's recordings, served at /audio/ with byte ranges (decision 052). */
  AUDIO_DIR: z.string().min(1).default(DEFAULT_AUDIO_DIR),
  /** Trust X-Forwarded-* from a proxy: "true", "loopback", a hop count, or addresses. */
  TRUST_PROXY: z.string().optional(),
  /** "off" lifts the bounds on concurrent searches (benchmarks, bulk checks). */
  SEARCH_LIMITS: z.enum(["on", "off"]).default("on"),
  /** API requests per client per minute (server/api-gate.ts); 0 lifts the limit. */
  API_RATE_LIMIT: z.coerce.number().int().min(0).max(1_000_000).optional(),
  /** "off" keeps no page: each is made for its request (benchmarks measure the render path with it). */
  PAGE_CACHE: z.enum(["on", "off"]).default("on"),
  /** "off": every post page through React Router (server/post-page.ts makes them from a frame otherwise). */
  POST_PAGES: z.enum(["on", "off"]).default("on"),
  /** Seconds a shared cache (a CDN, Varnish) may keep a page (s-maxage; never past the site's midnight). */
  CACHE_S_MAXAGE: z.coerce.number().int().min(0).max(31_536_000).default(3600),
  /** Seconds a shared cache may serve a page past s-maxage while it refreshes it (stale-while-revalidate). */
  CACHE_STALE_WHILE_REVALIDATE: z.coerce.number().int().min(0).max(86_400).default(60),
  /** "off": no pages rendered ahead after start (tests that count renders). */
  WARM_UP: z.enum(["on", "off"]).default("on"),
  /** Open connections kept at most; default: what the open-file limit allows. */
  MAX_CONNECTIONS: z.coerce.number().int().min(16).optional(),
  /** Worker processes `npm start` runs; default one per core, 1 keeps one process. */
  WEB_CONCURRENCY: z.coerce.number().int().min(1).max(64).optional(),
  /** Set by the primary in the workers it starts. */
  SUKTI_WORKER: z.literal("1").optional(),
  /** The site's identity: a JSON or TOML file (app/site-config.server.ts); the demo's when unset. */
  SITE_CONFIG: z.string().min(1).optional(),
  /** Count what readers read (decision 056); "off" counts nothing. */
  STATS: z.enum(["on", "off"]).default("on"),
  /** Where the counts go; default: PostgreSQL's own database, or a SQLite file beside the site's (-stats). */
  STATS_DATABASE_URL: z.string().min(1).optional(),
  /** How often each process writes its counts (ms). */
  STATS_FLUSH_MS: z.coerce.number().int().min(100).max(3_600_000).default(5000),
  /** Distinct counts a process keeps between writes; past it, items count as "(other)". */
  STATS_MAX_KEYS: z.coerce.number().int().min(100).max(1_000_000).default(5000),
  /** Months of daily detail kept; older days are rolled into monthly totals. */
  STATS_RETENTION: z.coerce.number().int().min(1).max(1200).default(13),
  /** The daily quote by Web Push (decision 060): the VAPID contact, a mailto: or https: URL; default PUBLIC_URL when https:. */
  VAPID_SUBJECT: z
    .string()
    .regex(/^(mailto:[^\s@/]+@[^\s@/]+|https:\/\/[^\s/@]+(\/\S*)?)$/, "must be a mailto: or https: URL")
    .optional(),
  /** More push service hosts (host[:port], comma list; a loopback IP may use http:), for tests. */
  PUSH_ENDPOINT_HOSTS: z.string().optional(),
  /** Subscriptions kept at most. */
  PUSH_MAX_SUBSCRIPTIONS: z.coerce.number().int().min(1).default(100_000),
  /** New subscriptions a client address may make per day (per process). */
  PUSH_SUBSCRIPTIONS_PER_ADDRESS: z.coerce.number().int().min(1).default(10),
  /** Subscribe and unsubscribe requests a client address may make per minute. */
  PUSH_REQUESTS_PER_MINUTE: z.coerce.number().int().min(1).default(20),
  /** "off": this process sends nothing (another node does). */
  PUSH_SENDER: z.enum(["on", "off"]).default("on"),
  /** How often the sender looks for subscribers due (ms). */
  PUSH_TICK_MS: z.coerce.number().int().min(100).max(60_000).default(20_000),
  /** Push requests in flight at once. */
  PUSH_CONCURRENCY: z.coerce.number().int().min(1).max(100).default(8),
  /** Seconds a push service keeps an undelivered message (TTL). */
  PUSH_TTL: z.coerce.number().int().min(0).max(2_419_200).default(43_200),
  LOG_LEVEL: z.enum(["silent", "error", "warn", "info", "debug"]).default("info"),
  /** Testing only: a fixed seed makes every request draw the same gallery. */
  SUKTI_RANDOM_SEED: z.coerce.number().int().optional(),
});

export type Env = z.infer<typeof EnvSchema>;

/** Parses the environment once; a bad value is one clear line, not a stack trace. */
export function parseEnv(source: NodeJS.ProcessEnv = process.env): Env {
  const cleaned = Object.fromEntries(Object.entries(source).filter(([, value]) => value !== ""));
  const result = EnvSchema.safeParse(cleaned);
  if (!result.success) {
    const problems = result.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`);
    throw new ConfigError(`invalid configuration: ${problems.join("; ")}`);
  }
  return result.data;
}

export class ConfigError extends Error {}
