// `npm run bench`: the production server under load on loopback, on the demo
// data and on a generated 100,000-post corpus, next to a bare Node server that
// returns the same HTML bytes from memory (the ceiling on this machine).
// Bounded: each URL runs a few seconds; everything stops by itself.
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import Database from "better-sqlite3";
import { postPath } from "#app/content/languages.ts";
import { freePort, startServer } from "#tests/support/server.ts";

const DURATION_S = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const CORPUS = Number(process.env.BENCH_CORPUS ?? 100_000);
const root = path.resolve(import.meta.dirname, "..");
const START_ARGS = (JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")).scripts.start as string)
  .split(/\s+/)
  .slice(1, -1);
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

const work = mkdtempSync(path.join(tmpdir(), "sukti-bench-"));

function run(command: string, args: string[], env: Record<string, string> = {}) {
  execFileSync(command, args, { cwd: root, stdio: "inherit", env: { ...process.env, ...env } });
}

if (!existsSync(path.join(root, "build/server/index.js"))) run("npx", ["react-router", "build"]);

/** Started as `npm start` starts it (its Node flags included), random gallery and all. */
function startSukti(dbPath: string, env: Record<string, string> = {}) {
  return startServer({
    dbPath,
    nodeArgs: START_ARGS,
    env: { LOG_LEVEL: "error", SUKTI_RANDOM_SEED: "", SEARCH_LIMITS: "off", ...env },
  });
}

function peakRssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
}

interface Result {
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
}

async function load(url: string): Promise<Result> {
  const result = await autocannon({ url, connections: CONNECTIONS, duration: DURATION_S });
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
  };
}

/** The URLs measured, picked from the database the server reads. */
function targets(dbPath: string) {
  const db = new Database(dbPath, { readonly: true });
  const first = (language: string) =>
    db
      .prepare(
        "SELECT slug FROM posts WHERE status = 'publish' AND language = ? ORDER BY post_time DESC LIMIT 1 OFFSET 3",
      )
      .pluck()
      .get(language) as string;
  const hindiCount = db
    .prepare("SELECT count(*) FROM posts WHERE status = 'publish' AND language = 'hindi'")
    .pluck()
    .get() as number;
  const english = first("english");
  const hindi = first("hindi");
  db.close();
  const deepPage = Math.max(2, Math.min(400, Math.ceil(hindiCount / 24)));
  return {
    home: "/",
    "english post": postPath("english", english),
    "hindi post": postPath("hindi", hindi),
    "/hindi/home": "/hindi/home",
    [`/hindi/home?page=${deepPage}`]: `/hindi/home?page=${deepPage}`,
    "/tags": "/tags",
    // "rendered" rows go to a second server with PAGE_CACHE=off: the cost of a cache miss.
    "english post, rendered": postPath("english", english),
    "/hindi/home, rendered": "/hindi/home",
    [`/hindi/home?page=${deepPage}, rendered`]: `/hindi/home?page=${deepPage}`,
    search: `/search/${encodeURIComponent("प्रेम")}`,
  };
}

async function benchDataset(name: string, dbPath: string) {
  const server = await startSukti(dbPath);
  const uncached = await startSukti(dbPath, { PAGE_CACHE: "off" });
  const barePort = await freePort();
  const urls = targets(dbPath);
  const bodies = new Map<string, Buffer>();
  const rows: { label: string; sukti: Result; bare: Result }[] = [];
  // The bare server: same bytes, from memory, no work.
  const bare = createServer((req, res) => {
    const body = bodies.get(req.url ?? "") ?? Buffer.from("not found");
    res.writeHead(200, { "Content-Type": "text/html; charset=utf-8", "Content-Length": body.length });
    res.end(body);
  });
  await new Promise<void>((resolve) => bare.listen(barePort, "127.0.0.1", resolve));
  try {
    for (const [label, target] of Object.entries(urls)) {
      const base = label.endsWith(", rendered") ? uncached.url : server.url;
      const response = await fetch(`${base}${target}`);
      if (response.status !== 200) throw new Error(`${target} answered ${response.status}`);
      bodies.set(target, Buffer.from(await response.arrayBuffer()));
      const sukti = await load(`${base}${target}`);
      const ceiling = await load(`http://127.0.0.1:${barePort}${target}`);
      rows.push({ label, sukti, bare: ceiling });
    }
  } finally {
    bare.close();
  }
  const rss = peakRssMb(server.child.pid!);
  await Promise.all([server.stop(), uncached.stop()]);

  console.log(`\n## ${name}\n`);
  console.log("| page | req/s | p50 ms | p99 ms | bare req/s | ratio to bare | non-2xx |");
  console.log("| --- | ---: | ---: | ---: | ---: | ---: | ---: |");
  for (const { label, sukti, bare: b } of rows) {
    console.log(
      `| ${label} | ${sukti.rps.toFixed(0)} | ${sukti.p50} | ${sukti.p99} | ${b.rps.toFixed(0)} | ${((100 * sukti.rps) / b.rps).toFixed(1)}% | ${sukti.non2xx + sukti.errors} |`,
    );
  }
  for (const rendered of [false, true]) {
    const suffix = rendered ? ", rendered" : "";
    const page1 = rows.find((row) => row.label === `/hindi/home${suffix}`)!;
    const deep = rows.find(
      (row) => row.label.startsWith("/hindi/home?page=") && row.label.endsWith(", rendered") === rendered,
    )!;
    console.log(
      `deep page vs page 1${rendered ? " (rendered)" : " (cached)"}: p50 ${(deep.sukti.p50 / Math.max(page1.sukti.p50, 0.01)).toFixed(2)}x, req/s ${(page1.sukti.rps / deep.sukti.rps).toFixed(2)}x`,
    );
  }
  console.log(`server peak RSS: ${rss.toFixed(0)} MB`);
}

try {
  console.log(
    `# sukti bench · ${new Date().toISOString()} · ${DURATION_S}s × ${CONNECTIONS} connections per URL`,
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
  await benchDataset(`generated corpus, ${CORPUS} posts`, corpusDb);
} finally {
  rmSync(work, { recursive: true, force: true });
}
