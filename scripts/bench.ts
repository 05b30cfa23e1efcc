// `npm run bench`: the production server under load on loopback, measured
// with Debian's wrk (`wrk -t1 -c16 --latency`), on the demo data and on a
// generated 100,000-post corpus, next to a bare node:http server answering
// the same HTML bytes from memory (the ceiling on this machine). Each page is
// measured BENCH_ROUNDS times (default 3), BENCH_SECONDS each (default 5),
// alternating with the bare server; the median round is reported. Then the
// demo data with 1 and 2 worker processes. Needs `npm run build` first; one
// server process as `npm start` starts it; everything stops by itself.
// `npm run bench -- --store postgres`: SQLite against PostgreSQL (bench-stores.ts).
// Environment: BENCH_SECONDS, BENCH_ROUNDS, BENCH_CORPUS (posts generated).
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, get } from "node:http";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { postPath } from "#app/content/languages.ts";
import { freePort } from "#tests/support/server.ts";
import {
  ACCEPT_ENCODING,
  ensureWrk,
  getAsWrk,
  WRK_CONNECTIONS,
  WRK_THREADS,
  type WrkFigures,
  wrk,
  wrkVersion,
} from "./wrk.ts";

// `npm run bench -- --store postgres`: SQLite against PostgreSQL, 1 and 2 workers.
const storeAt = process.argv.indexOf("--store");
if (storeAt !== -1) {
  if (process.argv[storeAt + 1] !== "postgres") {
    console.error("bench: --store takes postgres (the comparison with SQLite)");
    process.exit(2);
  }
  await import("./bench-stores.ts");
  process.exit(0);
}

/** A positive whole number from the environment, or one line and exit 2. */
function setting(name: string, fallback: number): number {
  const raw = process.env[name];
  const value = raw === undefined || raw === "" ? fallback : Number(raw);
  if (!Number.isInteger(value) || value < 1) {
    console.error(`bench: ${name} takes a positive whole number (got ${JSON.stringify(raw)})`);
    process.exit(2);
  }
  return value;
}

const SECONDS = setting("BENCH_SECONDS", 5);
const ROUNDS = setting("BENCH_ROUNDS", 3);
const CORPUS = setting("BENCH_CORPUS", 100_000);
/** Below this, the bare server says the machine (busy, slow) cannot judge a ratio. */
const BARE_FLOOR_RPS = 30_000;
const RSS_TARGET_MB = 200;
const WARM_UP_S = 1;
const STARTUP_TIMEOUT_MS = 60_000;
const RETRY_AFTER_MS = 60_000;
const STOP_TIMEOUT_MS = 15_000;
const root = path.resolve(import.meta.dirname, "..");
/** `npm start`'s Node flags (the V8 memory caps), read from package.json. */
const START_ARGS = (JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")).scripts.start as string)
  .split(/\s+/)
  .slice(1, -1);

if (!existsSync(path.join(root, "build/server/index.js"))) {
  console.error("bench: build/server/index.js is missing: run `npm run build` first");
  process.exit(2);
}
ensureWrk("bench");

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// ---------------------------------------------------------------- servers

interface Sukti {
  url: string;
  pid: number;
  stop: () => Promise<void>;
}

const work = mkdtempSync(path.join(tmpdir(), "sukti-bench-"));
/** Servers still running, stopped on Ctrl-C too. */
const live = new Set<ChildProcess>();

/** Worker processes of a cluster primary (its children), from /proc. */
function childPids(pid: number): number[] {
  const found = new Set<number>();
  try {
    for (const task of readdirSync(`/proc/${pid}/task`)) {
      const listed = readFileSync(`/proc/${pid}/task/${task}/children`, "utf8").trim();
      for (const child of listed.split(/\s+/)) if (child) found.add(Number(child));
    }
    return [...found];
  } catch {
    // This kernel has no children files: the scan below finds them instead.
  }
  // Without the children files (CONFIG_PROC_CHILDREN): every process's parent.
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      if (ppid === pid) found.add(Number(entry));
    } catch {
      // The process exited since /proc was listed: it is no child of ours.
    }
  }
  return [...found];
}

/** A process's peak resident set (VmHWM), in MB; NaN once it is gone. */
function peakRssMb(pid: number): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    return Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? Number.NaN) / 1024;
  } catch {
    return Number.NaN;
  }
}

/** One GET on a connection of its own (no keep-alive socket to go stale). */
function httpGet(url: string, timeoutMs = 30_000): Promise<{ status: number; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const request = get(url, { agent: false, timeout: timeoutMs }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.once("end", () => resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks) }));
      response.once("error", reject);
    });
    request.once("timeout", () => request.destroy(new Error(`${url}: no answer in ${timeoutMs / 1000} s`)));
    request.once("error", reject);
  });
}

/**
 * `node <npm start's flags> server.js`, as `npm start` runs it, on a loopback
 * port: production, the default log level (info: the per-request log line is
 * part of the cost; stdout goes to /dev/null, so it never piles up here), a
 * fresh gallery per request (no seed), search limits off, one process unless
 * `env` says otherwise. Ready once GET /healthz answers 200.
 */
async function spawnSukti(dbPath: string, env: Record<string, string>): Promise<Sukti> {
  const port = await freePort();
  const dir = mkdtempSync(path.join(work, "server-"));
  const child = spawn(process.execPath, [...START_ARGS, "server.js"], {
    cwd: root,
    env: {
      ...process.env,
      NODE_ENV: "production",
      HOST: "127.0.0.1",
      PORT: String(port),
      DATABASE_URL: `file:${dbPath}`,
      SHARE_IMAGE_DIR: path.join(dir, "share-images"),
      LOG_LEVEL: "info",
      SUKTI_RANDOM_SEED: "",
      SEARCH_LIMITS: "off",
      PAGE_CACHE: "on",
      WEB_CONCURRENCY: "1",
      ...env,
    },
    stdio: ["ignore", "ignore", "pipe"],
  });
  live.add(child);
  // Only the last few kB of stderr, for a start-up failure's message.
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr = (stderr + chunk.toString("utf8")).slice(-4000);
  });
  const exited = new Promise<void>((resolve) =>
    child.once("exit", () => {
      live.delete(child);
      resolve();
    }),
  );
  const gone = () => child.exitCode !== null || child.signalCode !== null;
  let workers: number[] = [];
  const stop = async () => {
    if (!gone()) {
      workers = [...workers, ...childPids(child.pid!)];
      child.kill("SIGTERM");
      const timer = setTimeout(() => {
        child.kill("SIGKILL");
        for (const pid of workers) {
          try {
            process.kill(pid, "SIGKILL");
          } catch {
            // The worker has already exited.
          }
        }
      }, STOP_TIMEOUT_MS);
      await exited;
      clearTimeout(timer);
    }
    rmSync(dir, { recursive: true, force: true });
  };

  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + STARTUP_TIMEOUT_MS;
  for (;;) {
    if (gone()) {
      await stop();
      throw new Error(`the server exited with ${child.exitCode ?? child.signalCode}:\n${stderr}`);
    }
    try {
      if ((await httpGet(`${url}/healthz`, 2_000)).status === 200) break;
    } catch {
      // Not answering yet: it is asked again until the deadline.
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`the server did not answer /healthz within ${STARTUP_TIMEOUT_MS / 1000} s:\n${stderr}`);
    }
    await sleep(100);
  }
  return { url, pid: child.pid!, stop };
}

/** spawnSukti; if the server fails to start (a build being replaced?), once more a minute later. */
async function startSukti(dbPath: string, env: Record<string, string> = {}): Promise<Sukti> {
  const fresh = !existsSync(dbPath);
  try {
    return await spawnSukti(dbPath, env);
  } catch (error) {
    console.error(
      `bench: the server did not start (${(error as Error).message.trim()}); trying again in ${RETRY_AFTER_MS / 1000} s`,
    );
    // A database it was creating and seeding starts afresh.
    if (fresh) for (const suffix of ["", "-wal", "-shm"]) rmSync(`${dbPath}${suffix}`, { force: true });
    await sleep(RETRY_AFTER_MS);
    return await spawnSukti(dbPath, env);
  }
}

/** The ceiling: a bare node:http server answering each page's bytes from memory (at /<index>). */
async function startBare() {
  const bodies: { body: Buffer; encoding: string | undefined }[] = [];
  const server = createServer((req, res) => {
    const page = bodies[Number(req.url?.slice(1))];
    if (!page) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, {
      "Content-Type": "text/html; charset=utf-8",
      "Content-Length": page.body.length,
      ...(page.encoding ? { "Content-Encoding": page.encoding } : {}),
    });
    res.end(page.body);
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  return {
    /** The bare server's URL for these bytes (as sent, in this Content-Encoding). */
    serve: (body: Buffer, encoding: string | undefined) =>
      `http://127.0.0.1:${port}/${bodies.push({ body, encoding }) - 1}`,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

// ---------------------------------------------------------------- pages and targets

type Kind = "home" | "cached" | "search" | "rendered" | "post-rendered";

interface Page {
  label: string;
  path: string;
  kind: Kind;
  /** Each request a different address (a search not asked before), made by this wrk script. */
  script?: string;
  /** Served by a server that renders every post page through React Router (POST_PAGES=off): the baseline of decision 097. */
  react?: true;
}

/**
 * wrk's script for searches never asked before: four words of twenty, in
 * Latin and Devanagari, from a starting number each round gives (so no round
 * repeats another's searches, and none is a search-cache hit).
 */
const NEW_SEARCHES_LUA = `-- written by scripts/bench.ts
local words = { ${[
  "love",
  "truth",
  "peace",
  "god",
  "mind",
  "heart",
  "soul",
  "faith",
  "prem",
  "bhakti",
  "प्रेम",
  "सत्य",
  "मन",
  "भक्ति",
  "राम",
  "गुरु",
  "संत",
  "शांति",
  "ज्ञान",
  "जीवन",
]
  .map((word) => JSON.stringify(encodeURIComponent(word)))
  .join(", ")} }
local n = #words
local i = 0
init = function(args) i = tonumber(args[1]) end
request = function()
  i = i + 1
  local path = "/search/" .. words[i % n + 1] .. "%20" .. words[math.floor(i / n) % n + 1] ..
    "%20" .. words[math.floor(i / n / n) % n + 1] .. "%20" .. words[math.floor(i / n / n / n) % n + 1]
  return wrk.format("GET", path)
end
`;

const TARGETS: Record<Kind, { ratio?: number; p99?: number; text: string }> = {
  home: { ratio: 1.5, text: "≥ 1.5%" },
  cached: { ratio: 25, p99: 10, text: "≥ 25%, p99 < 10 ms" },
  search: { ratio: 1, text: "≥ 1%" },
  rendered: { text: "—" },
  // A post page not kept: made from its language's frame (decision 097).
  "post-rendered": { ratio: 1.5, text: "≥ 1.5%" },
};

/** The pages measured, with post slugs picked from the database the server reads. */
function pagesOf(dbPath: string): Page[] {
  const db = new Database(dbPath, { readonly: true });
  let english: string;
  let hindi: string;
  let hindiCount: number;
  try {
    const pick = (language: string) => {
      const slug = db
        .prepare(
          "SELECT slug FROM posts WHERE status = 'publish' AND language = ? ORDER BY post_time DESC LIMIT 1 OFFSET 3",
        )
        .pluck()
        .get(language) as string | undefined;
      if (!slug) throw new Error(`no published ${language} post in ${dbPath}`);
      return slug;
    };
    english = pick("english");
    hindi = pick("hindi");
    hindiCount = db
      .prepare("SELECT count(*) FROM posts WHERE status = 'publish' AND language = 'hindi'")
      .pluck()
      .get() as number;
  } finally {
    db.close();
  }
  const deep = `/hindi/home?page=${Math.max(2, Math.min(400, Math.ceil(hindiCount / 24)))}`;
  return [
    { label: "home (fresh gallery per request)", path: "/", kind: "home" },
    { label: "English post", path: postPath("english", english), kind: "cached" },
    { label: "Hindi post", path: postPath("hindi", hindi), kind: "cached" },
    { label: "/hindi/home", path: "/hindi/home", kind: "cached" },
    { label: deep, path: deep, kind: "cached" },
    { label: "/tags", path: "/tags", kind: "cached" },
    { label: "search love", path: "/search/love", kind: "search" },
    { label: "search प्रेम", path: `/search/${encodeURIComponent("प्रेम")}`, kind: "search" },
    {
      label: "search, a new four-word query each request",
      path: `/search/${encodeURIComponent("love truth प्रेम सत्य")}`,
      kind: "search",
      script: NEW_SEARCHES_LUA,
    },
    // A second server with PAGE_CACHE=off: what a cache miss costs.
    { label: "English post, rendered", path: postPath("english", english), kind: "post-rendered" },
    {
      label: "English post, rendered by React Router (POST_PAGES=off)",
      path: postPath("english", english),
      kind: "rendered",
      react: true,
    },
    { label: "/hindi/home, rendered", path: "/hindi/home", kind: "rendered" },
    { label: `${deep}, rendered`, path: deep, kind: "rendered" },
  ];
}

// ---------------------------------------------------------------- measuring

interface Measured {
  rps: number;
  /** The bare server's req/s in the same round as `rps`. */
  bareRps: number;
  p50: number;
  p99: number;
  non2xx: number;
  socketErrors: number;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/**
 * ROUNDS × (sukti, then the bare server); the round with the median sukti
 * req/s gives the pair (the lower one of the middle two for an even count),
 * the latencies are the medians over all rounds, the failures their sum.
 */
async function measure(suktiUrl: string, bareUrl?: string, script?: string): Promise<Measured> {
  const rounds: { sukti: WrkFigures; bare?: WrkFigures }[] = [];
  let file: string | undefined;
  if (script) {
    file = path.join(mkdtempSync(path.join(tmpdir(), "sukti-bench-lua-")), "requests.lua");
    writeFileSync(file, script);
  }
  for (let round = 0; round < ROUNDS; round++) {
    const sukti = await wrk(suktiUrl, {
      seconds: SECONDS,
      script: file ? { file, args: [String(round * 40_000)] } : undefined,
    });
    rounds.push({ sukti, bare: bareUrl ? await wrk(bareUrl, { seconds: SECONDS }) : undefined });
  }
  if (file) rmSync(path.dirname(file), { recursive: true, force: true });
  const pair = [...rounds].sort((a, b) => a.sukti.rps - b.sukti.rps)[(rounds.length - 1) >> 1]!;
  return {
    rps: pair.sukti.rps,
    bareRps: pair.bare?.rps ?? Number.NaN,
    p50: median(rounds.map(({ sukti }) => sukti.p50)),
    p99: median(rounds.map(({ sukti }) => sukti.p99)),
    non2xx: rounds.reduce((sum, { sukti }) => sum + sukti.non2xx, 0),
    socketErrors: rounds.reduce((sum, { sukti }) => sum + sukti.socketErrors, 0),
  };
}

const ms = (value: number) =>
  Number.isNaN(value)
    ? "—"
    : value < 1
      ? value.toFixed(2)
      : value < 100
        ? value.toFixed(1)
        : value.toFixed(0);
const rps = (value: number) => (Number.isNaN(value) ? "—" : value.toFixed(0));
const mb = (value: number) => (Number.isNaN(value) ? "?" : value.toFixed(0));
const trusted = (m: Measured) => m.bareRps >= BARE_FLOOR_RPS;
const ratio = (m: Measured) => (100 * m.rps) / m.bareRps;
const failures = (m: Measured) =>
  m.socketErrors ? `${m.non2xx} (+${m.socketErrors} socket errors)` : String(m.non2xx);

/** PASS or MISS against the row's target; non-2xx answers or socket errors always miss. */
function mark(kind: Kind, m: Measured): string {
  const target = TARGETS[kind];
  const failed = m.non2xx + m.socketErrors > 0;
  if (target.ratio === undefined) return failed ? "MISS (non-2xx)" : "";
  const met = !failed && ratio(m) >= target.ratio && (target.p99 === undefined || m.p99 < target.p99);
  return `${met ? "PASS" : "MISS"}${trusted(m) ? "" : " (ratio untrusted)"}`;
}

interface Row {
  page: Page;
  m: Measured;
}

const tally = { pass: 0, miss: 0, untrusted: 0 };

async function benchDataset(name: string, dbPath: string) {
  const cached = await startSukti(dbPath);
  const servers = [cached];
  const bare = await startBare();
  const rows: Row[] = [];
  let rss = { cached: Number.NaN, rendered: Number.NaN };
  try {
    const rendered = await startSukti(dbPath, { PAGE_CACHE: "off" });
    servers.push(rendered);
    const react = await startSukti(dbPath, { PAGE_CACHE: "off", POST_PAGES: "off" });
    servers.push(react);
    const pages = pagesOf(dbPath);
    const urls = new Map<Page, { sukti: string; bare: string }>();
    const serverOf = (page: Page) =>
      page.react ? react : page.kind === "rendered" || page.kind === "post-rendered" ? rendered : cached;
    for (const page of pages) {
      const sukti = `${serverOf(page).url}${page.path}`;
      const { status, body, encoding } = await getAsWrk(sukti);
      if (status !== 200) throw new Error(`${name}: ${page.path} answered ${status}`);
      urls.set(page, { sukti, bare: bare.serve(body, encoding) });
    }
    // The JIT warmed on each server before the first figure counts.
    await wrk(urls.get(pages[0]!)!.sukti, { seconds: WARM_UP_S });
    for (const page of pages.filter((page) => page.kind === "post-rendered" || page.react)) {
      await wrk(urls.get(page)!.sukti, { seconds: WARM_UP_S });
    }
    await wrk(urls.get(pages[0]!)!.bare, { seconds: WARM_UP_S });
    for (const page of pages) {
      const { sukti, bare: ceiling } = urls.get(page)!;
      const m = await measure(sukti, ceiling, page.script);
      rows.push({ page, m });
      console.error(`  ${name}: ${page.label}: ${rps(m.rps)} req/s, bare ${rps(m.bareRps)}`);
    }
    rss = { cached: peakRssMb(cached.pid), rendered: peakRssMb(rendered.pid) };
  } finally {
    await bare.stop();
    await Promise.all(servers.map((server) => server.stop()));
  }

  console.log(`\n## ${name}\n`);
  console.log("| page | req/s | p50 ms | p99 ms | bare req/s | ratio to bare | target | non-2xx |");
  console.log("| --- | ---: | ---: | ---: | ---: | ---: | --- | ---: |");
  for (const { page, m } of rows) {
    const target = TARGETS[page.kind];
    const verdict = mark(page.kind, m);
    if (target.ratio !== undefined) {
      if (verdict.startsWith("PASS")) tally.pass++;
      else tally.miss++;
      if (!trusted(m)) tally.untrusted++;
    } else if (verdict) tally.miss++;
    const ratioCell = `${ratio(m).toFixed(1)}%${trusted(m) ? "" : " (untrusted)"}`;
    const targetCell = verdict ? `${target.text}: ${verdict}` : target.text;
    console.log(
      `| ${page.label} | ${rps(m.rps)} | ${ms(m.p50)} | ${ms(m.p99)} | ${rps(m.bareRps)} | ${ratioCell} | ${targetCell} | ${failures(m)} |`,
    );
  }
  const bareFigures = rows.map(({ m }) => m.bareRps);
  const slow = rows.filter(({ m }) => !trusted(m));
  console.log(
    `\nbare node:http ceiling: ${rps(Math.min(...bareFigures))}–${rps(Math.max(...bareFigures))} req/s (trusted from ${BARE_FLOOR_RPS})`,
  );
  if (slow.length > 0) {
    console.log(
      `!!! WARNING: the bare server reached less than ${BARE_FLOOR_RPS} req/s for ${slow.length} of ${rows.length} pages (down to ${rps(Math.min(...slow.map(({ m }) => m.bareRps)))}): this machine is too busy or too slow to judge their ratios, which are marked untrusted. Run again on an idle machine. !!!`,
    );
  }
  for (const renderedRows of [false, true]) {
    const of = (test: (page: Page) => boolean) =>
      rows.find(({ page }) => (page.kind === "rendered") === renderedRows && test(page))?.m;
    const page1 = of((page) => page.path === "/hindi/home");
    const deep = of((page) => page.path.startsWith("/hindi/home?page="));
    if (!page1 || !deep) continue;
    console.log(
      `deep page vs page 1 (${renderedRows ? "rendered" : "cached"}): p50 ${(deep.p50 / Math.max(page1.p50, 0.01)).toFixed(2)}x, req/s ${(deep.rps / page1.rps).toFixed(2)}x`,
    );
  }
  const rssMet = rss.cached < RSS_TARGET_MB;
  if (rssMet) tally.pass++;
  else tally.miss++;
  console.log(
    `server peak RSS (VmHWM): ${mb(rss.cached)} MB, target < ${RSS_TARGET_MB} MB: ${rssMet ? "PASS" : "MISS"} (the PAGE_CACHE=off server: ${mb(rss.rendered)} MB)`,
  );
}

/** 1 and 2 worker processes (WEB_CONCURRENCY), demo data: home, English post, search प्रेम. */
async function benchWorkers(dbPath: string) {
  const all = pagesOf(dbPath);
  const pages = ["home (fresh gallery per request)", "English post", "search प्रेम"].map(
    (label) => all.find((page) => page.label === label)!,
  );
  const rows: string[] = [];
  const memory: string[] = [];
  for (const workers of [1, 2]) {
    const server = await startSukti(dbPath, { WEB_CONCURRENCY: String(workers) });
    try {
      for (const page of pages) {
        const { status } = await httpGet(`${server.url}${page.path}`);
        if (status !== 200) throw new Error(`${workers} workers: ${page.path} answered ${status}`);
      }
      await wrk(`${server.url}/`, { seconds: WARM_UP_S });
      for (const page of pages) {
        const m = await measure(`${server.url}${page.path}`);
        rows.push(
          `| ${workers} | ${page.label} | ${rps(m.rps)} | ${ms(m.p50)} | ${ms(m.p99)} | ${failures(m)} |`,
        );
        console.error(`  ${workers} worker(s): ${page.label}: ${rps(m.rps)} req/s`);
      }
      if (workers === 1) memory.push(`1 worker: ${mb(peakRssMb(server.pid))} MB`);
      else {
        const each = childPids(server.pid).map(peakRssMb);
        const sum = each.reduce((total, value) => total + value, 0);
        memory.push(
          `${workers} workers: ${each.map(mb).join(" + ")} = ${mb(sum)} MB in the workers (the primary: ${mb(peakRssMb(server.pid))} MB)`,
        );
      }
    } finally {
      await server.stop();
    }
  }
  console.log("\n## with several workers (demo data)\n");
  console.log("| workers | page | req/s | p50 ms | p99 ms | non-2xx |");
  console.log("| ---: | --- | ---: | ---: | ---: | ---: |");
  for (const row of rows) console.log(row);
  console.log(`\npeak RSS (VmHWM): ${memory.join("; ")}`);
  console.log(
    `note: wrk -t${WRK_THREADS} itself keeps one core busy; on this ${availableParallelism()}-core machine the 2 workers share the cores with wrk${availableParallelism() <= 2 ? ", so the 2-worker figures are bounded by the machine, not by sukti" : ""}.`,
  );
}

// ---------------------------------------------------------------- the run

function run(command: string, args: string[], env: Record<string, string> = {}) {
  execFileSync(command, args, { cwd: root, stdio: "inherit", env: { ...process.env, ...env } });
}

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    for (const child of live) child.kill("SIGTERM");
    rmSync(work, { recursive: true, force: true });
    process.exit(130);
  });
}

try {
  console.log(
    `# sukti bench · ${new Date().toISOString()} · node ${process.version} · ${availableParallelism()} cores · load average ${loadavg()[0]!.toFixed(2)}`,
  );
  console.log(
    `${wrkVersion()}: wrk -t${WRK_THREADS} -c${WRK_CONNECTIONS} -d${SECONDS}s --latency -H "Accept-Encoding: ${ACCEPT_ENCODING}" on loopback (the bare server answers the same compressed bytes), ${ROUNDS} round${ROUNDS > 1 ? "s" : ""} per page alternating with the bare server, the median round shown; server: node ${START_ARGS.join(" ")} server.js, WEB_CONCURRENCY=1, SEARCH_LIMITS=off, LOG_LEVEL=info`,
  );
  const demoDb = path.join(work, "demo.db");
  await benchDataset("demo data", demoDb);

  const corpusFile = path.join(work, "corpus.ndjson");
  const corpusDb = path.join(work, "corpus.db");
  const started = performance.now();
  run("node", [
    "bin/sukti.js",
    "generate",
    "--count",
    String(CORPUS),
    "--format",
    "ndjson",
    "--out",
    corpusFile,
  ]);
  run("node", ["bin/sukti.js", "import", corpusFile], { DATABASE_URL: `file:${corpusDb}` });
  console.log(
    `\n${CORPUS} posts generated and imported in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
  rmSync(corpusFile, { force: true });
  await benchDataset(`generated corpus, ${CORPUS} posts`, corpusDb);

  await benchWorkers(demoDb);
  console.log(
    `\ntargets: ${tally.pass} PASS, ${tally.miss} MISS${tally.untrusted ? ` (${tally.untrusted} ratio${tally.untrusted > 1 ? "s" : ""} untrusted: the bare server was under ${BARE_FLOOR_RPS} req/s)` : ""}`,
  );
} finally {
  for (const child of live) child.kill("SIGKILL");
  rmSync(work, { recursive: true, force: true });
}
