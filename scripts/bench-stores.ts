// `npm run bench -- --store postgres` (or `npm run bench:stores`): the same
// pages on SQLite and on PostgreSQL, each with 1 and with 2 worker
// processes, in one run, against a bare node:http server answering the same
// bytes from memory (the machine's ceiling). Load from Debian's wrk
// (-t1 -c16), loopback only; everything stops by itself. Demo data.
import { execFile, execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { postgresAvailable, startPostgres } from "#tests/support/postgres.ts";
import { freePort, type RunningServer, startServer } from "#tests/support/server.ts";

const root = path.resolve(import.meta.dirname, "..");
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = 16;
const START_ARGS = ["--max-semi-space-size=2", "--max-old-space-size=192"];

if (!existsSync(path.join(root, "build/server/index.js"))) {
  console.error("bench: build/server/index.js is missing: run `npm run build` first");
  process.exit(2);
}
try {
  execFileSync("wrk", ["--version"], { stdio: "ignore" });
} catch (error) {
  // wrk --version exits 1 but prints; only a missing binary is fatal.
  if ((error as NodeJS.ErrnoException).code === "ENOENT") {
    console.error("bench: wrk is missing: apt-get install wrk");
    process.exit(2);
  }
}
if (!postgresAvailable()) process.exit(2);

interface Figures {
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
}

/**
 * wrk's figures for one URL: requests/s and the latency percentiles, in ms.
 * Run without blocking this process: a blocked event loop lets fetch reuse a
 * keep-alive socket the server has already closed.
 */
async function wrk(url: string): Promise<Figures> {
  const { stdout: out } = await promisify(execFile)(
    "wrk",
    ["-t1", `-c${CONNECTIONS}`, `-d${SECONDS}s`, "--latency", url],
    { encoding: "utf8" },
  );
  const ms = (label: string) => {
    const match = new RegExp(`\\s${label}%\\s+([\\d.]+)(us|ms|s)`).exec(out);
    if (!match) return Number.NaN;
    const value = Number(match[1]);
    return match[2] === "us" ? value / 1000 : match[2] === "s" ? value * 1000 : value;
  };
  return {
    rps: Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1] ?? 0),
    p50: ms("50"),
    p99: ms("99"),
    non2xx: Number(/Non-2xx or 3xx responses:\s+(\d+)/.exec(out)?.[1] ?? 0),
  };
}

const PAGES: Record<string, string> = {
  home: "/",
  "English post": "",
  "English post, rendered": "",
  "/hindi/home": "/hindi/home",
  "/tags": "/tags",
  "search love": "/search/love",
  "search प्रेम": `/search/${encodeURIComponent("प्रेम")}`,
};

async function measure(label: string, databaseUrl: string, workers: number, bare: Map<string, Figures>) {
  const env = {
    DATABASE_URL: databaseUrl,
    WEB_CONCURRENCY: String(workers),
    LOG_LEVEL: "error",
    SUKTI_RANDOM_SEED: "",
    SEARCH_LIMITS: "off",
  };
  const servers: RunningServer[] = [
    await startServer({ nodeArgs: START_ARGS, env }),
    await startServer({ nodeArgs: START_ARGS, env: { ...env, PAGE_CACHE: "off" } }),
  ];
  const [cached, uncached] = servers as [RunningServer, RunningServer];
  try {
    const home = await (await fetch(`${cached.url}/english/home`)).text();
    const post = /href="(\/english\/(?!home|feed\.xml)[^"]+)"/.exec(home)![1]!;
    PAGES["English post"] = post;
    PAGES["English post, rendered"] = post;
    const rows: string[] = [];
    for (const [page, target] of Object.entries(PAGES)) {
      const server = page.endsWith(", rendered") ? uncached : cached;
      const response = await fetch(`${server.url}${target}`).catch((error: Error) => {
        throw new Error(
          `${label}: ${target}: ${error.message}; the server said:\n${server.output().slice(-3000)}`,
        );
      });
      if (response.status !== 200) throw new Error(`${label}: ${target} answered ${response.status}`);
      const body = Buffer.from(await response.arrayBuffer());
      if (!bare.has(page)) bare.set(page, await bareFigures(body));
      const f = await wrk(`${server.url}${target}`);
      const ceiling = bare.get(page)!;
      rows.push(
        `| ${label} | ${page} | ${f.rps.toFixed(0)} | ${f.p50.toFixed(1)} | ${f.p99.toFixed(1)} | ${((100 * f.rps) / ceiling.rps).toFixed(1)}% | ${f.non2xx} |`,
      );
    }
    return rows;
  } finally {
    await Promise.all(servers.map((server) => server.stop()));
  }
}

/** The ceiling: a bare node:http server answering the same bytes from memory. */
async function bareFigures(body: Buffer): Promise<Figures> {
  const port = await freePort();
  const bare = createServer((_req, res) => {
    res.writeHead(200, { "Content-Type": "text/html; charset=utf-8", "Content-Length": body.length });
    res.end(body);
  });
  await new Promise<void>((resolve) => bare.listen(port, "127.0.0.1", resolve));
  try {
    return await wrk(`http://127.0.0.1:${port}/`);
  } finally {
    bare.close();
  }
}

const postgres = await startPostgres();
const work = mkdtempSync(path.join(tmpdir(), "sukti-bench-stores-"));
try {
  console.log(
    `# sukti bench --store postgres · ${new Date().toISOString()} · wrk -t1 -c${CONNECTIONS} -d${SECONDS}s per URL · demo data`,
  );
  const bare = new Map<string, Figures>();
  const rows: string[] = [];
  for (const workers of [1, 2]) {
    rows.push(
      ...(await measure(
        `SQLite, ${workers} worker${workers > 1 ? "s" : ""}`,
        `file:${path.join(work, `w${workers}.db`)}`,
        workers,
        bare,
      )),
    );
    const url = await postgres.createDatabase(`bench_w${workers}`);
    rows.push(
      ...(await measure(`PostgreSQL, ${workers} worker${workers > 1 ? "s" : ""}`, url, workers, bare)),
    );
  }
  console.log("\n| store | page | req/s | p50 ms | p99 ms | of bare | non-2xx |");
  console.log("| --- | --- | ---: | ---: | ---: | ---: | ---: |");
  for (const row of rows) console.log(row);
  console.log("\nbare node:http, same bytes from memory:");
  for (const [page, f] of bare) console.log(`  ${page}: ${f.rps.toFixed(0)} req/s`);
} finally {
  await postgres.stop();
  rmSync(work, { recursive: true, force: true });
}
