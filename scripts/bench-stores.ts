// `npm run bench -- --store postgres` (or `npm run bench:stores`): the same
// pages on SQLite and on PostgreSQL, each with 1 and with 2 worker
// processes, in one run, against a bare node:http server answering the same
// bytes from memory (the machine's ceiling). Load from Debian's wrk
// (-t1 -c16), loopback only; everything stops by itself. Demo data.
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { postgresAvailable, startPostgres } from "#tests/support/postgres.ts";
import { freePort, type RunningServer, startServer } from "#tests/support/server.ts";
import { ensureWrk, wrk as runWrk, WRK_CONNECTIONS, type WrkFigures } from "./wrk.ts";

const root = path.resolve(import.meta.dirname, "..");
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = WRK_CONNECTIONS;
/** `npm start`'s Node flags. */
const START_ARGS = (JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")).scripts.start as string)
  .split(/\s+/)
  .slice(1, -1);

if (!existsSync(path.join(root, "build/server/index.js"))) {
  console.error("bench: build/server/index.js is missing: run `npm run build` first");
  process.exit(2);
}
ensureWrk("bench --store postgres");
if (!postgresAvailable()) process.exit(2);

/** wrk's figures for one URL (scripts/wrk.ts: run without blocking this process). */
const wrk = (url: string) => runWrk(url, { seconds: SECONDS });

const PAGES: Record<string, string> = {
  home: "/",
  "English post": "",
  "English post, rendered": "",
  "/hindi/home": "/hindi/home",
  "/tags": "/tags",
  "search love": "/search/love",
  "search प्रेम": `/search/${encodeURIComponent("प्रेम")}`,
};

async function measure(label: string, databaseUrl: string, workers: number, bare: Map<string, WrkFigures>) {
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
async function bareFigures(body: Buffer): Promise<WrkFigures> {
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
  const bare = new Map<string, WrkFigures>();
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
