// `npm run bench:churn`: what writes cost a busy site (decision 057). A generated
// corpus (100,000 posts by default), 2,000 of its pages warmed, then a
// sync-sized write (10 posts edited, 1 added, 1 unpublished, by `sukti import`
// in its own process, as an operator's sync runs it) every 10 s while wrk
// browses those pages at random, 16 connections, for 60 s. Reported per write:
// the hit ratio until the next write (sukti's X-Cache HIT or STALE, or
// Varnish's X-Varnish-Cache HIT in front), the renders (responses sukti
// rendered: its X-Cache: MISS), Varnish's backend fetches, how long the import took and
// how long after it returned an edited page still showed the old text (polled
// every 25 ms); over the run: req/s, p50/p99. Beside it, a bare node:http
// server's req/s for one of the pages, in the same run. Twice: sukti alone,
// then Debian's Varnish in front (deploy/varnish/default.vcl, PURGE_URL set).
//
//   npm run bench:churn -- --posts 10000 --seconds 20 --every 5
//   flags: --posts N, --pages N (warmed), --seconds N, --every N, --connections N,
//          --only sukti|varnish
// Needs `npm run build`, wrk and (for the second half) varnish + varnish-modules.
import { execFile, execFileSync, spawn } from "node:child_process";
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { Agent, createServer, get } from "node:http";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import path from "node:path";
import { parseArgs, promisify } from "node:util";
import Database from "better-sqlite3";
import { isLanguage, postPath } from "#app/content/languages.ts";
import type { PostRecord } from "#app/content/schemas.ts";
import { generatePosts } from "#cli/generate.ts";
import { freePort, type RunningServer, startServer } from "#tests/support/server.ts";
import {
  startVarnish,
  type TestVarnish,
  VARNISH_SKIP_MESSAGE,
  varnishAvailable,
} from "#tests/support/varnish.ts";
import {
  ACCEPT_ENCODING,
  ensureWrk,
  getAsWrk,
  parseWrk,
  WRK_HEADERS,
  WRK_THREADS,
  type WrkFigures,
  wrk,
  wrkVersion,
} from "./wrk.ts";

const { values: flags } = parseArgs({
  options: {
    posts: { type: "string", default: "100000" },
    pages: { type: "string", default: "2000" },
    seconds: { type: "string", default: "60" },
    every: { type: "string", default: "10" },
    connections: { type: "string", default: "16" },
    only: { type: "string" },
  },
});
function whole(name: keyof typeof flags): number {
  const value = Number(flags[name]);
  if (!Number.isInteger(value) || value < 1) {
    console.error(
      `bench:churn: --${name} takes a positive whole number (got ${JSON.stringify(flags[name])})`,
    );
    process.exit(2);
  }
  return value;
}
const POSTS = whole("posts");
const PAGES = whole("pages");
const SECONDS = whole("seconds");
const EVERY = whole("every");
const CONNECTIONS = whole("connections");
if (flags.only && flags.only !== "sukti" && flags.only !== "varnish") {
  console.error("bench:churn: --only takes sukti or varnish");
  process.exit(2);
}
const EDITED = 10;
const root = path.resolve(import.meta.dirname, "..");
const START_ARGS = (JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")).scripts.start as string)
  .split(/\s+/)
  .slice(1, -1);
if (!existsSync(path.join(root, "build/server/index.js"))) {
  console.error("bench:churn: build/server/index.js is missing: run `npm run build` first");
  process.exit(2);
}
ensureWrk("bench:churn");

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const work = mkdtempSync(path.join(tmpdir(), "sukti-churn-"));

// ---------------------------------------------------------------- the corpus and its pages

function run(command: string, args: string[], env: Record<string, string> = {}) {
  execFileSync(command, args, {
    cwd: root,
    stdio: ["ignore", "ignore", "inherit"],
    env: { ...process.env, ...env },
  });
}

interface Pages {
  paths: string[];
  /** Warmed posts' records (edited or unpublished by the writes), in a random order. */
  posts: PostRecord[];
}

/** PAGES addresses: list pages (language homes, tags) and, for the rest, random published posts. */
function choosePages(dbPath: string): Pages {
  const db = new Database(dbPath, { readonly: true });
  const paths: string[] = [];
  let chosen: { language: string; slug: string }[];
  try {
    for (const language of ["english", "hindi", "marathi"])
      for (let page = 1; page <= 10; page++)
        paths.push(page === 1 ? `/${language}/home` : `/${language}/home?page=${page}`);
    paths.push("/tags", "/people", "/sitemap.xml");
    const tags = db
      .prepare("SELECT slug FROM terms WHERE kind = 'tag' ORDER BY slug LIMIT 40")
      .pluck()
      .all() as string[];
    for (const slug of tags) paths.push(`/tag/${encodeURIComponent(slug)}`);
    chosen = db
      .prepare("SELECT language, slug FROM posts WHERE status = 'publish' ORDER BY random() LIMIT ?")
      .all(Math.max(0, PAGES - paths.length)) as { language: string; slug: string }[];
  } finally {
    db.close();
  }
  const wanted = new Set(chosen.map(({ language, slug }) => `${language}/${slug}`));
  const posts: PostRecord[] = [];
  // The same generator and seed as `sukti generate`: the records the database was made from.
  for (const post of generatePosts({ count: POSTS })) {
    if (wanted.has(`${post.language}/${post.slug}`)) posts.push(post);
  }
  posts.sort(() => Math.random() - 0.5);
  for (const { language, slug } of chosen) if (isLanguage(language)) paths.push(postPath(language, slug));
  return { paths, posts };
}

/** GET each address once (4 at a time); every one must answer 200. */
async function warm(base: string, paths: string[]) {
  let next = 0;
  const failed: string[] = [];
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      while (next < paths.length) {
        const pathname = paths[next++]!;
        const response = await fetch(`${base}${pathname}`);
        await response.arrayBuffer();
        if (response.status !== 200) failed.push(`${pathname} ${response.status}`);
      }
    }),
  );
  if (failed.length > 0)
    throw new Error(`warming: ${failed.length} pages did not answer 200: ${failed.slice(0, 5).join(", ")}`);
}

// ---------------------------------------------------------------- wrk's script

/**
 * Random addresses of the warmed set; per wall-clock second, the responses,
 * the hits (sukti's X-Cache, or Varnish's X-Varnish-Cache in front), the
 * renders (sukti's X-Cache: MISS not served from Varnish) and the non-200s.
 */
function browseScript(paths: string[], front: "sukti" | "varnish"): string {
  return `-- written by scripts/bench-churn.ts
local paths = { ${paths.map((p) => JSON.stringify(p)).join(", ")} }
local n = #paths
local threads = {}
total, hits, renders, failed = {}, {}, {}, {}
setup = function(thread) table.insert(threads, thread) end
init = function(args) math.randomseed(os.time()) end
request = function() return wrk.format("GET", paths[math.random(n)]) end
local function bump(t, k) t[k] = (t[k] or 0) + 1 end
response = function(status, headers, body)
  local s = os.time()
  bump(total, s)
  if status ~= 200 then bump(failed, s) end
  local sukti = headers["X-Cache"] or headers["x-cache"]
  ${
    front === "varnish"
      ? `local varnish = headers["X-Varnish-Cache"] or headers["x-varnish-cache"] or ""
  if varnish:sub(1, 3) == "HIT" then bump(hits, s) elseif sukti == "MISS" then bump(renders, s) end`
      : `if sukti == "HIT" or sukti == "STALE" then bump(hits, s) elseif sukti == "MISS" then bump(renders, s) end`
  }
end
done = function(summary, latency, requests)
  for _, thread in ipairs(threads) do
    local t, h, r, f = thread:get("total"), thread:get("hits"), thread:get("renders"), thread:get("failed")
    for s, count in pairs(t) do
      io.write(string.format("second %d %d %d %d %d\\n", s, count, h[s] or 0, r[s] or 0, f[s] or 0))
    end
  end
end
`;
}

/** wrk with the browsing script, its whole output kept (the per-second counts follow the figures). */
async function browse(url: string, script: string): Promise<{ figures: WrkFigures; stdout: string }> {
  const args = [
    `-t${WRK_THREADS}`,
    `-c${CONNECTIONS}`,
    `-d${SECONDS}s`,
    "--latency",
    ...WRK_HEADERS,
    "-s",
    script,
    url,
  ];
  const { stdout } = await promisify(execFile)("wrk", args, {
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
    timeout: (SECONDS + 60) * 1000,
    killSignal: "SIGKILL",
  });
  // CHURN_WRK_OUT=file keeps wrk's whole output (its latency table, thread stats) for a closer look.
  if (process.env.CHURN_WRK_OUT) writeFileSync(process.env.CHURN_WRK_OUT, stdout);
  return { figures: parseWrk(stdout), stdout };
}

interface Second {
  total: number;
  hits: number;
  renders: number;
  failed: number;
}

function parseSeconds(out: string): Map<number, Second> {
  const seconds = new Map<number, Second>();
  for (const [, s, total, hits, renders, failed] of out.matchAll(
    /^second (\d+) (\d+) (\d+) (\d+) (\d+)$/gm,
  )) {
    seconds.set(Number(s), {
      total: Number(total),
      hits: Number(hits),
      renders: Number(renders),
      failed: Number(failed),
    });
  }
  return seconds;
}

// ---------------------------------------------------------------- the writes

interface Write {
  /** Wall-clock seconds when the import started. */
  at: number;
  importMs: number;
  /** After the import returned: until the first edited page showed its new text, and until the unpublished post was 404. */
  staleMs: number;
  unpublishedMs: number;
  /** Varnish's backend fetches until the next write. */
  backendFetches?: number;
}

/** Write `k` (0-based): 10 warmed posts edited, 1 added, 1 unpublished; by `sukti import` in its own process. */
function writeRecords(
  pages: Pages,
  k: number,
  mode: string,
): { file: string; marker: string; edited: PostRecord; unpublished: PostRecord } {
  const marker = `churn ${mode} edit ${k}`;
  const base = k * (EDITED + 1);
  const edited = pages.posts.slice(base, base + EDITED).map((post) => ({
    ...post,
    content: `${post.content}<p>${marker}</p>`,
  }));
  const unpublished = pages.posts[base + EDITED]!;
  if (!unpublished) throw new Error("bench:churn: not enough warmed posts for the writes: raise --pages");
  const template = pages.posts[0]!;
  const added: PostRecord = {
    ...template,
    idNum: 900_000_000 + k,
    language: "english",
    slug: `churn-${mode}-${k}`,
    title: `Churn ${mode} ${k}`,
    postTime: Math.floor(Date.now() / 1000),
    translationKey: "",
  } as PostRecord;
  const file = path.join(work, `write-${mode}-${k}.ndjson`);
  writeFileSync(
    file,
    [...edited, added, { ...unpublished, status: "draft" }].map((r) => JSON.stringify(r)).join("\n"),
  );
  return { file, marker, edited: edited[0]!, unpublished };
}

function importFile(file: string, env: Record<string, string>): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["bin/sukti.js", "import", file], {
      cwd: root,
      env: { ...process.env, ...env },
      stdio: ["ignore", "ignore", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.once("exit", (code) =>
      code === 0 ? resolve() : reject(new Error(`sukti import exited ${code}: ${stderr}`)),
    );
  });
}

/**
 * Polls `url` every 25 ms until `done(status, body)`. Returns how long after
 * the call the first request that saw it done was sent (0: the first request
 * already did): a page's staleness, not the latency of the answer showing it.
 * NaN after 30 s.
 */
async function until(url: string, done: (status: number, body: string) => boolean): Promise<number> {
  const started = performance.now();
  while (performance.now() - started < 30_000) {
    const sent = performance.now();
    const response = await fetch(url);
    if (done(response.status, await response.text())) return sent - started;
    await sleep(25);
  }
  return Number.NaN;
}

/**
 * A visitor beside wrk: one request at a time (a browser's headers, one
 * keep-alive connection) to a random warmed page until `stop()`, each
 * request timed here from its sending to its last byte. wrk's own latency
 * table does not add up (its mean times its requests passes its connections
 * times its seconds, docs/performance.md); these times are a visitor's.
 */
function visitorProbe(front: string, paths: readonly string[]) {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const times: number[] = [];
  /** When each timed request was sent (epoch seconds), beside `times`. */
  const sentAt: number[] = [];
  let failures = 0;
  let stopped = false;
  const once = (url: string) =>
    new Promise<void>((resolve, reject) => {
      const request = get(url, { agent, headers: { "accept-encoding": ACCEPT_ENCODING } }, (response) => {
        response.on("data", () => undefined);
        response.once("end", () => resolve());
        response.once("error", reject);
      });
      request.once("error", reject);
    });
  const running = (async () => {
    while (!stopped) {
      const path = paths[Math.floor(Math.random() * paths.length)] ?? "/";
      const sent = performance.now();
      try {
        await once(`${front}${path}`);
        times.push(performance.now() - sent);
        sentAt.push(Date.now() / 1000 - (performance.now() - sent) / 1000);
      } catch {
        // A connection the server closed: the next request opens another (not timed as a visit).
        failures++;
      }
    }
  })();
  return {
    /** The figures, and the p99 of the requests sent within WRITE_SPAN_S of a write's start apart from the rest. */
    async stop(writesAt: readonly number[]): Promise<Visitor> {
      stopped = true;
      await running;
      agent.destroy();
      const p99Of = (values: number[]) =>
        percentile(
          [...values].sort((a, b) => a - b),
          99,
        );
      const sorted = [...times].sort((a, b) => a - b);
      const nearWrite = (t: number) => writesAt.some((at) => t >= at && t < at + WRITE_SPAN_S);
      const near = times.filter((_, i) => nearWrite(sentAt[i] ?? 0));
      const away = times.filter((_, i) => !nearWrite(sentAt[i] ?? 0));
      // Before the first write nothing but the browsing runs: the server's own tail.
      const first = writesAt[0] ?? Number.POSITIVE_INFINITY;
      const before = times.filter((_, i) => (sentAt[i] ?? 0) < first);
      return {
        requests: sorted.length,
        failures,
        p50: percentile(sorted, 50),
        p99: percentile(sorted, 99),
        max: sorted.at(-1) ?? Number.NaN,
        slowest: slowest(times, sentAt, writesAt),
        nearWrites: { requests: near.length, p99: p99Of(near) },
        awayFromWrites: { requests: away.length, p99: p99Of(away) },
        beforeWrites: { requests: before.length, p99: p99Of(before) },
      };
    },
  };
}

/** Seconds after a write's start (the import, its catch-up and refreshes) its visitor requests are counted apart. */
const WRITE_SPAN_S = 3;

const percentile = (sorted: readonly number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;

/** The slowest visitor requests (at most 5), each with when it was sent: seconds after the start of the write before it. */
function slowest(times: readonly number[], sentAt: readonly number[], writesAt: readonly number[]): string {
  return times
    .map((ms, i) => ({ ms, at: sentAt[i] ?? 0 }))
    .sort((a, b) => b.ms - a.ms)
    .slice(0, 5)
    .map(({ ms, at }) => {
      const write = writesAt.findLastIndex((start) => start <= at);
      const when =
        write === -1
          ? "before the first write"
          : `${(at - writesAt[write]!).toFixed(2)} s after write ${write + 1}`;
      return `${ms.toFixed(0)} ms (${when})`;
    })
    .join(", ");
}

interface Visitor {
  requests: number;
  failures: number;
  p50: number;
  p99: number;
  max: number;
  /** The slowest requests and when they were sent (slowest()). */
  slowest: string;
  nearWrites: { requests: number; p99: number };
  awayFromWrites: { requests: number; p99: number };
  beforeWrites: { requests: number; p99: number };
}

// ---------------------------------------------------------------- one run

interface Result {
  mode: string;
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  socketErrors: number;
  before: Second;
  windows: { write: Write; seconds: Second }[];
  /** The visitor beside wrk (visitorProbe). */
  visitor: Visitor;
}

const sum = (seconds: Second[]): Second =>
  seconds.reduce(
    (a, b) => ({
      total: a.total + b.total,
      hits: a.hits + b.hits,
      renders: a.renders + b.renders,
      failed: a.failed + b.failed,
    }),
    { total: 0, hits: 0, renders: 0, failed: 0 },
  );

async function churn(mode: "sukti" | "varnish", corpusDb: string, pages: Pages): Promise<Result> {
  const dbPath = path.join(work, `${mode}.db`);
  for (const suffix of ["", "-wal", "-shm"])
    if (existsSync(`${corpusDb}${suffix}`)) copyFileSync(`${corpusDb}${suffix}`, `${dbPath}${suffix}`);
  let server: RunningServer | undefined;
  let varnish: TestVarnish | undefined;
  const script = path.join(work, `browse-${mode}.lua`);
  try {
    server = await startServer({
      dbPath,
      // CHURN_NODE_ARGS: Node flags for a diagnosis (--trace-gc); the server's output is then kept in CHURN_SERVER_OUT.
      nodeArgs: [...START_ARGS, ...(process.env.CHURN_NODE_ARGS?.split(" ").filter(Boolean) ?? [])],
      env: { SUKTI_RANDOM_SEED: "", SEARCH_LIMITS: "off", PAGE_CACHE: "on", LOG_LEVEL: "warn" },
    });
    let front = server.url;
    const env: Record<string, string> = { DATABASE_URL: `file:${dbPath}` };
    if (mode === "varnish") {
      varnish = await startVarnish({ backendPort: Number(new URL(server.url).port), storageMb: 512 });
      front = varnish.url;
      env.PURGE_URL = `${varnish.url}/`;
    }
    console.error(`  ${mode}: warming ${pages.paths.length} pages…`);
    await warm(front, pages.paths);
    if (varnish) await warm(front, pages.paths);
    writeFileSync(script, browseScript(pages.paths, mode));

    console.error(`  ${mode}: browsing for ${SECONDS} s, a write every ${EVERY} s…`);
    const started = Date.now() / 1000;
    const browsing = browse(front, script);
    const visitor = visitorProbe(front, pages.paths);
    const writes: Write[] = [];
    let fetches = varnish ? ((await varnish.counters())["MAIN.backend_req"] ?? 0) : 0;
    for (let k = 0; ; k++) {
      const due = started + EVERY * (k + 1);
      // The last write keeps a whole interval of browsing after it.
      if (due + EVERY > started + SECONDS + 0.5) break;
      await sleep(Math.max(0, (due - Date.now() / 1000) * 1000));
      // Slow imports pushed this write past the browsing: no window to measure it in.
      if (Date.now() / 1000 + EVERY / 2 > started + SECONDS) break;
      if (varnish && writes.length > 0) {
        const now = (await varnish.counters())["MAIN.backend_req"] ?? 0;
        writes.at(-1)!.backendFetches = now - fetches;
        fetches = now;
      }
      const { file, marker, edited, unpublished } = writeRecords(pages, k, mode);
      const at = Date.now() / 1000;
      const importStarted = performance.now();
      await importFile(file, env);
      const importMs = performance.now() - importStarted;
      const [staleMs, unpublishedMs] = await Promise.all([
        until(`${front}${postPath(edited.language as "english", edited.slug)}`, (_, body) =>
          body.includes(marker),
        ),
        until(
          `${front}${postPath(unpublished.language as "english", unpublished.slug)}`,
          (status) => status === 404,
        ),
      ]);
      writes.push({ at, importMs, staleMs, unpublishedMs });
      console.error(
        `  ${mode}: write ${k + 1}: import ${(importMs / 1000).toFixed(2)} s, stale ${staleMs.toFixed(0)} ms`,
      );
    }
    const { figures, stdout } = await browsing;
    const visited = await visitor.stop(writes.map((write) => write.at));
    if (varnish && writes.length > 0) {
      writes.at(-1)!.backendFetches = ((await varnish.counters())["MAIN.backend_req"] ?? 0) - fetches;
    }
    const seconds = parseSeconds(stdout);
    const inRange = (from: number, to: number) =>
      sum([...seconds].filter(([s]) => s >= Math.floor(from) && s < Math.floor(to)).map(([, v]) => v));
    const end = Math.max(...seconds.keys()) + 1;
    return {
      mode,
      ...figures,
      before: inRange(0, writes[0]?.at ?? end),
      windows: writes.map((write, i) => ({ write, seconds: inRange(write.at, writes[i + 1]?.at ?? end) })),
      visitor: visited,
    };
  } finally {
    if (process.env.CHURN_SERVER_OUT && server) writeFileSync(process.env.CHURN_SERVER_OUT, server.output());
    await varnish?.stop();
    await server?.stop();
    for (const suffix of ["", "-wal", "-shm"]) rmSync(`${dbPath}${suffix}`, { force: true });
  }
}

/**
 * A bare node:http server answering one page's bytes from memory: the
 * machine's ceiling, same wrk, and the same visitor beside it (what a
 * visitor's p99 is on this machine when the server does nothing at all).
 */
async function bare({
  body,
  encoding,
}: {
  body: Buffer;
  encoding: string | undefined;
}): Promise<{ rps: number; visitor: Visitor }> {
  const server = createServer((_req, res) => {
    res.writeHead(200, {
      "Content-Type": "text/html; charset=utf-8",
      "Content-Length": body.length,
      ...(encoding ? { "Content-Encoding": encoding } : {}),
    });
    res.end(body);
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  try {
    const front = `http://127.0.0.1:${port}`;
    const visitor = visitorProbe(front, ["/"]);
    const { rps } = await wrk(`${front}/`, { seconds: Math.min(10, SECONDS), connections: CONNECTIONS });
    return { rps, visitor: await visitor.stop([]) };
  } finally {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

// ---------------------------------------------------------------- the report

const pct = (part: number, whole: number) => (whole === 0 ? "—" : `${((100 * part) / whole).toFixed(1)}%`);
const s = (ms: number) => (Number.isNaN(ms) ? "> 30" : (ms / 1000).toFixed(2));

function report(result: Result, bareRun: { rps: number; visitor: Visitor }) {
  const bareRps = bareRun.rps;
  console.log(`\n## ${result.mode === "varnish" ? "Varnish in front (PURGE_URL set)" : "sukti alone"}\n`);
  console.log(
    `${result.rps.toFixed(0)} req/s (bare node:http ${bareRps.toFixed(0)}: ${pct(result.rps, bareRps)}), p50 ${result.p50.toFixed(2)} ms, p99 ${result.p99.toFixed(1)} ms, non-2xx ${result.non2xx}${result.socketErrors ? `, socket errors ${result.socketErrors}` : ""}`,
  );
  const v = result.visitor;
  console.log(
    `the same visitor beside wrk on the bare server: p50 ${bareRun.visitor.p50.toFixed(2)} ms, p99 ${bareRun.visitor.p99.toFixed(1)} ms, max ${bareRun.visitor.max.toFixed(0)} ms (${bareRun.visitor.requests} requests)`,
  );
  console.log(
    `a visitor beside wrk, one request at a time: ${v.requests} requests, p50 ${v.p50.toFixed(2)} ms, p99 ${v.p99.toFixed(1)} ms, max ${v.max.toFixed(0)} ms${v.failures ? `, ${v.failures} failed` : ""}; p99 within ${WRITE_SPAN_S} s of a write's start ${v.nearWrites.p99.toFixed(1)} ms (${v.nearWrites.requests} requests), at other times ${v.awayFromWrites.p99.toFixed(1)} ms (${v.awayFromWrites.requests}), before the first write ${v.beforeWrites.p99.toFixed(1)} ms (${v.beforeWrites.requests})`,
  );
  console.log(`the visitor's slowest requests: ${v.slowest}`);
  console.log(
    `before the first write: ${result.before.total} responses, hit ratio ${pct(result.before.hits, result.before.total)}, ${result.before.renders} renders\n`,
  );
  const varnish = result.mode === "varnish";
  console.log(
    `| write | import s | edited page stale after it, s | unpublished served after it, s | responses until the next | hit ratio | renders |${varnish ? " Varnish backend fetches |" : ""}`,
  );
  console.log(`| ---: | ---: | ---: | ---: | ---: | ---: | ---: |${varnish ? " ---: |" : ""}`);
  result.windows.forEach(({ write, seconds }, i) => {
    console.log(
      `| ${i + 1} | ${s(write.importMs)} | ${s(write.staleMs)} | ${s(write.unpublishedMs)} | ${seconds.total} | ${pct(seconds.hits, seconds.total)} | ${seconds.renders} |${varnish ? ` ${write.backendFetches ?? "—"} |` : ""}`,
    );
  });
  const longest = Math.max(...result.windows.map(({ write }) => write.staleMs));
  const worst = Math.min(
    ...result.windows.map(({ seconds }) => (seconds.total ? seconds.hits / seconds.total : 1)),
  );
  console.log(
    `\nlowest hit ratio after a write: ${(100 * worst).toFixed(1)}% (target ≥ 95%); longest an edited page stayed stale: ${s(longest)} s (target < 2); p99 ${result.p99.toFixed(1)} ms as wrk prints it, ${result.visitor.p99.toFixed(1)} ms for the visitor (target < 20)`,
  );
}

try {
  const modes = (flags.only ? [flags.only] : ["sukti", "varnish"]) as ("sukti" | "varnish")[];
  if (modes.includes("varnish") && !varnishAvailable()) {
    console.error(`bench:churn: ${VARNISH_SKIP_MESSAGE}`);
    modes.splice(modes.indexOf("varnish"), 1);
  }
  console.log(
    `# sukti bench:churn · ${new Date().toISOString()} · node ${process.version} · ${availableParallelism()} cores · load average ${loadavg()[0]!.toFixed(2)}`,
  );
  console.log(
    `${wrkVersion()}: wrk -t${WRK_THREADS} -c${CONNECTIONS} -d${SECONDS}s -H "Accept-Encoding: ${ACCEPT_ENCODING}" over ${PAGES} warmed pages at random; ${POSTS} posts; a write (${EDITED} edited, 1 added, 1 unpublished, \`sukti import\`) every ${EVERY} s; server: node ${START_ARGS.join(" ")} server.js, WEB_CONCURRENCY=1, LOG_LEVEL=warn`,
  );
  const corpusFile = path.join(work, "corpus.ndjson");
  const corpusDb = path.join(work, "corpus.db");
  const made = performance.now();
  run("node", [
    "bin/sukti.js",
    "generate",
    "--count",
    String(POSTS),
    "--format",
    "ndjson",
    "--out",
    corpusFile,
  ]);
  run("node", ["bin/sukti.js", "import", corpusFile], { DATABASE_URL: `file:${corpusDb}` });
  rmSync(corpusFile, { force: true });
  console.log(`${POSTS} posts generated and imported in ${((performance.now() - made) / 1000).toFixed(1)} s`);
  const pages = choosePages(corpusDb);
  const writesNeeded = Math.floor(SECONDS / EVERY) * (EDITED + 1);
  if (pages.posts.length < writesNeeded)
    throw new Error(`bench:churn: ${pages.posts.length} warmed posts, ${writesNeeded} needed: raise --pages`);

  const sample = await (async () => {
    const server = await startServer({ dbPath: corpusDb, env: { LOG_LEVEL: "warn" } });
    try {
      return await getAsWrk(`${server.url}${pages.paths.at(-1)}`);
    } finally {
      await server.stop();
    }
  })();
  for (const mode of modes) {
    const bareRun = await bare(sample);
    const result = await churn(mode, corpusDb, pages);
    report(result, bareRun);
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
