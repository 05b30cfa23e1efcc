// `npm run bench:flood [-- --seconds N] [-- --connections N]`: can a flood of
// searches from one client starve the other pages (issue 11)? Runs the built
// server (`npm run build` first) twice, as `npm start` starts it, each on a
// fresh demo database: once with SEARCH_LIMITS=off (the unlimited baseline)
// and once with the search limits on. For each it measures the latency of the
// home page (rendered per request) and of a cached post page, seen by another
// client, first idle and then while Debian's `wrk` (one thread, N connections,
// default 32) requests random /search/ addresses and counts their statuses.
// Beside them, a bare Node server returning the home page's bytes from memory,
// measured the same way (what this machine itself allows under that load), and
// a visitor sending one search at a time, whom the limits must never refuse.
// The measuring clients connect from 127.0.0.2 and 127.0.0.3, wrk from
// 127.0.0.1: a limit per client address tells them apart.
// Fails (exit 1) unless, with the limits on and the flood running, the home
// page's and the cached post page's p99 stay under 100 ms. Loopback only;
// everything stops by itself (about a minute with the defaults).
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { Agent, createServer, get } from "node:http";
import { cpus, loadavg, tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { freePort, type RunningServer, startServer } from "#tests/support/server.ts";
import { ensureWrk } from "./wrk.ts";

const TARGET_P99_MS = 100;
/** The measuring clients' own loopback addresses (wrk's is 127.0.0.1). */
const PAGES_ADDRESS = "127.0.0.2";
const SEARCHER_ADDRESS = "127.0.0.3";
/** The searching visitor's pause between one answer and its next search. */
const SEARCHER_PAUSE_MS = 200;
const root = path.resolve(import.meta.dirname, "..");

const { values } = parseArgs({
  options: {
    seconds: { type: "string", default: "15" },
    connections: { type: "string", default: "32" },
    seed: { type: "string", default: "20261122" },
  },
});
const FLOOD_S = Number(values.seconds);
const CONNECTIONS = Number(values.connections);
const SEED = Number(values.seed);
for (const [name, value] of [
  ["--seconds", FLOOD_S],
  ["--connections", CONNECTIONS],
  ["--seed", SEED],
] as const) {
  if (!Number.isInteger(value) || value < 1) {
    console.error(`bench-flood: ${name} takes a positive whole number`);
    process.exit(2);
  }
}
// The measuring client starts after the flood has ramped up and stops before
// wrk does: 2 s + 10 s + 3 s with the default 15 s.
const LEAD_S = Math.min(2, FLOOD_S * 0.15);
const TAIL_S = Math.min(3, FLOOD_S * 0.15);
const MEASURE_S = FLOOD_S - LEAD_S - TAIL_S;

if (!existsSync(path.join(root, "build/server/index.js"))) {
  console.error("bench-flood: build/server/index.js is missing: run `npm run build` first");
  process.exit(2);
}
ensureWrk("bench-flood");

/** `npm start`'s Node flags, as scripts/bench.ts reads them. */
const START_ARGS = (JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")).scripts.start as string)
  .split(/\s+/)
  .slice(1, -1);

// The flood's words: English, romanised Hindi, Devanagari (URL-encoded here),
// and random 3–8 letter strings made up in Lua.
const LATIN = ["love", "truth", "mind", "peace", "silence", "heart", "kindness", "river", "faith", "wisdom"];
const ROMANISED = ["prem", "sant", "bhakti", "man", "shanti", "gyan", "satya", "ishwar", "kabir", "guru"];
const DEVANAGARI = ["प्रेम", "मन", "सत्य", "भक्ति", "ज्ञान", "शान्ति", "हृदय", "ईश्वर", "संत", "विठ्ठल"];
const lua = (words: string[]) => `{ ${words.map((word) => JSON.stringify(word)).join(", ")} }`;

/** wrk's script: random search addresses; counts statuses; prints one JSON line at the end. */
const FLOOD_LUA = `-- written by scripts/bench-flood.ts
local latin = ${lua(LATIN)}
local romanised = ${lua(ROMANISED)}
local devanagari = ${lua(DEVANAGARI.map(encodeURIComponent))}
local letters = "abcdefghijklmnopqrstuvwxyz"

c200, c429, c503, cother = 0, 0, 0, 0

local threads = {}
function setup(thread)
  table.insert(threads, thread)
end

function init(args)
  math.randomseed(${SEED})
end

function request()
  local kind = math.random(4)
  local word
  if kind == 1 then
    word = latin[math.random(#latin)]
  elseif kind == 2 then
    word = romanised[math.random(#romanised)]
  elseif kind == 3 then
    local chars = {}
    for i = 1, math.random(3, 8) do
      local at = math.random(#letters)
      chars[i] = letters:sub(at, at)
    end
    word = table.concat(chars)
  else
    word = devanagari[math.random(#devanagari)]
  end
  return wrk.format("GET", "/search/" .. word)
end

function response(status, headers, body)
  if status == 200 then
    c200 = c200 + 1
  elseif status == 429 then
    c429 = c429 + 1
  elseif status == 503 then
    c503 = c503 + 1
  else
    cother = cother + 1
  end
end

function done(summary, latency, requests)
  local s200, s429, s503, sother = 0, 0, 0, 0
  for _, thread in ipairs(threads) do
    s200 = s200 + thread:get("c200")
    s429 = s429 + thread:get("c429")
    s503 = s503 + thread:get("c503")
    sother = sother + thread:get("cother")
  end
  local e = summary.errors
  io.write(string.format(
    'FLOOD {"requests":%.0f,"durationUs":%.0f,"s200":%.0f,"s429":%.0f,"s503":%.0f,"other":%.0f,' ..
      '"errors":%.0f,"timeouts":%.0f,"p50Us":%.0f,"p99Us":%.0f}\\n',
    summary.requests, summary.duration, s200, s429, s503, sother,
    e.connect + e.read + e.write, e.timeout, latency:percentile(50), latency:percentile(99)))
end
`;

interface Flood {
  requests: number;
  durationUs: number;
  s200: number;
  s429: number;
  s503: number;
  other: number;
  errors: number;
  timeouts: number;
  p50Us: number;
  p99Us: number;
}

interface Latencies {
  times: number[];
  /** Answers other than 200 (by status, 0 for a socket error or time-out). */
  failed: Map<number, number>;
}

interface Phase {
  label: string;
  home: Latencies;
  post: Latencies;
  bare: Latencies;
  search: Latencies;
  flood?: Flood;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Nearest-rank percentile of latencies in ms. */
function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))]!;
}

const ms = (value: number) => (Number.isNaN(value) ? "—" : value < 10 ? value.toFixed(1) : value.toFixed(0));

/** One GET on its keep-alive connection; the time to the end of the body, in ms. */
function timedGet(url: string, agent: Agent, localAddress: string): Promise<{ ms: number; status: number }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const request = get(url, { agent, localAddress, timeout: 30_000 }, (response) => {
      response.resume();
      response.once("end", () =>
        resolve({ ms: performance.now() - started, status: response.statusCode ?? 0 }),
      );
      response.once("error", reject);
    });
    request.once("timeout", () => request.destroy(new Error(`${url}: no answer in 30 s`)));
    request.once("error", reject);
  });
}

/** The searching visitor's words: the flood's fixed words in turn, each a page of its own. */
const SEARCHER_WORDS = [...LATIN, ...ROMANISED, ...DEVANAGARI].map(encodeURIComponent);

/**
 * GETs in turn until the window closes, one request at a time, each URL on
 * its own keep-alive connection; the latencies of 200s, the other answers
 * counted by status.
 */
async function timeLoop(
  urls: (() => string)[],
  localAddress: string,
  until: number,
  pauseMs = 0,
): Promise<Latencies[]> {
  const loops = urls.map((url) => ({
    url,
    agent: new Agent({ keepAlive: true, maxSockets: 1 }),
    result: { times: [], failed: new Map() } as Latencies,
  }));
  try {
    while (performance.now() < until) {
      for (const { url, agent, result } of loops) {
        let status = 0;
        try {
          const answer = await timedGet(url(), agent, localAddress);
          status = answer.status;
          if (status === 200) result.times.push(answer.ms);
        } catch {
          // The request failed: it is counted below as status 0.
        }
        if (status !== 200) result.failed.set(status, (result.failed.get(status) ?? 0) + 1);
      }
      if (pauseMs) await sleep(pauseMs);
    }
  } finally {
    for (const { agent } of loops) agent.destroy();
  }
  return loops.map(({ result }) => result);
}

/**
 * Two other clients for `seconds`. One (127.0.0.2) asks for the home page, the
 * cached post page and the bare page in turn, one request at a time, so that
 * it never competes with itself. The other (127.0.0.3) is a visitor sending
 * one search at a time, with a short pause between. Being other addresses
 * than wrk's, a limit per client sees them as other clients.
 */
async function measure(urls: { home: string; post: string; bare: string; search: string }, seconds: number) {
  const pages = [urls.home, urls.post, urls.bare].map((url) => () => url);
  let n = 0;
  const search = () => `${urls.search}${SEARCHER_WORDS[n++ % SEARCHER_WORDS.length]}`;
  const until = performance.now() + seconds * 1000;
  const [[home, post, bare], [searched]] = (await Promise.all([
    timeLoop(pages, PAGES_ADDRESS, until),
    timeLoop([search], SEARCHER_ADDRESS, until, SEARCHER_PAUSE_MS),
  ])) as [[Latencies, Latencies, Latencies], [Latencies]];
  return { home, post, bare, search: searched };
}

/** Runs wrk against the server's search; resolves with its counts when it stops by itself. */
function startFlood(server: RunningServer, script: string) {
  const wrk = spawn(
    "wrk",
    ["-t1", `-c${CONNECTIONS}`, `-d${FLOOD_S}s`, "--timeout", "10s", "-s", script, `${server.url}/`],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  let output = "";
  wrk.stdout.on("data", (chunk) => (output += chunk));
  wrk.stderr.on("data", (chunk) => (output += chunk));
  const finished = new Promise<Flood>((resolve, reject) => {
    wrk.once("error", reject);
    wrk.once("exit", (code) => {
      const line = /^FLOOD (\{.*\})$/m.exec(output);
      if (code === 0 && line) resolve(JSON.parse(line[1]!) as Flood);
      else reject(new Error(`wrk exited with ${code}:\n${output}`));
    });
  });
  return {
    finished,
    stop: () => {
      if (wrk.exitCode === null && wrk.signalCode === null) wrk.kill("SIGTERM");
    },
  };
}

/** The first English post linked from /english/home (served from the page cache once warmed). */
async function pickPost(url: string): Promise<string> {
  const html = await (await fetch(`${url}/english/home`)).text();
  const href = [...html.matchAll(/<a\b[^>]*>/g)]
    .map(([tag]) =>
      tag.includes("post-card-link") ? /href="(\/english\/[^"?#.]+)"/.exec(tag)?.[1] : undefined,
    )
    .find((link) => link !== undefined && link !== "/english/home");
  if (!href) throw new Error("no English post link on /english/home");
  return href;
}

async function benchServer(label: string, env: Record<string, string>, script: string): Promise<Phase[]> {
  const server = await startServer({
    nodeArgs: START_ARGS,
    env: { LOG_LEVEL: "warn", SUKTI_RANDOM_SEED: "", ...env },
  });
  const postPath = await pickPost(server.url);
  // The bare server: the home page's bytes from memory, no work.
  const body = Buffer.from(await (await fetch(`${server.url}/`)).arrayBuffer());
  const bare = createServer((_req, res) => {
    res.writeHead(200, { "Content-Type": "text/html; charset=utf-8", "Content-Length": body.length });
    res.end(body);
  });
  const barePort = await freePort();
  await new Promise<void>((resolve) => bare.listen(barePort, "127.0.0.1", resolve));
  let flood: ReturnType<typeof startFlood> | undefined;
  try {
    const urls = {
      home: `${server.url}/`,
      post: `${server.url}${postPath}`,
      bare: `http://127.0.0.1:${barePort}/`,
      search: `${server.url}/search/`,
    };
    for (let i = 0; i < 20; i++) {
      // Warm up: the JIT, and the post page into the page cache.
      await (await fetch(urls.home)).arrayBuffer();
      await (await fetch(urls.post)).arrayBuffer();
    }
    const idle = await measure(urls, MEASURE_S);
    flood = startFlood(server, script);
    const floodDone = flood.finished.catch((error: unknown) => error as Error);
    await sleep(LEAD_S * 1000);
    const loaded = await measure(urls, MEASURE_S);
    const counts = await floodDone;
    if (counts instanceof Error) throw counts;
    console.log(`${label}: post page ${postPath}`);
    return [
      { label: `${label}, idle`, ...idle },
      { label: `${label}, flood`, ...loaded, flood: counts },
    ];
  } finally {
    flood?.stop();
    bare.close();
    const code = await server.stop();
    if (code !== 0 && code !== null) console.log(`${label}: server exited with ${code}:\n${server.output()}`);
  }
}

const refusals = (failed: Map<number, number>) =>
  [...failed].map(([status, count]) => `${count} × ${status || "socket error"}`).join(", ");
const failures = (failed: Map<number, number>) => [...failed.values()].reduce((sum, count) => sum + count, 0);

function describe({ times, failed }: Latencies): string {
  return `p50 ${ms(percentile(times, 0.5))}, p90 ${ms(percentile(times, 0.9))}, p99 ${ms(percentile(times, 0.99))}, max ${ms(percentile(times, 1))} ms, n ${times.length}${failed.size ? `; not 200: ${refusals(failed)}` : ""}`;
}

// The limits-on run must not inherit SEARCH_LIMITS=off from this shell.
delete process.env.SEARCH_LIMITS;
const work = mkdtempSync(path.join(tmpdir(), "sukti-bench-flood-"));
const script = path.join(work, "flood.lua");
writeFileSync(script, FLOOD_LUA);
let phases: Phase[];
try {
  console.log(
    `# sukti flood bench · ${new Date().toISOString()} · node ${process.version} · ${cpus().length} cores · load average ${loadavg()[0]!.toFixed(2)}`,
  );
  console.log(
    `flood: wrk -t1 -c${CONNECTIONS} -d${FLOOD_S}s, random /search/ words, seed ${SEED}; measured for ${MEASURE_S.toFixed(1)} s per phase (from ${LEAD_S.toFixed(1)} s into the flood): home, cached post and bare page in turn from ${PAGES_ADDRESS}, beside one search at a time (${SEARCHER_PAUSE_MS} ms apart) from ${SEARCHER_ADDRESS}\n`,
  );
  phases = [
    ...(await benchServer("limits off", { SEARCH_LIMITS: "off" }, script)),
    ...(await benchServer("limits on", {}, script)),
  ];
} finally {
  rmSync(work, { recursive: true, force: true });
}

console.log("");
for (const phase of phases) {
  console.log(`${phase.label}`);
  console.log(`  home          ${describe(phase.home)}`);
  console.log(`  cached post   ${describe(phase.post)}`);
  console.log(`  bare          ${describe(phase.bare)}`);
  console.log(`  one search    ${describe(phase.search)}`);
  const f = phase.flood;
  if (f) {
    console.log(
      `  flood search  ${f.requests} requests, ${((f.requests * 1e6) / f.durationUs).toFixed(0)} req/s, p50 ${ms(f.p50Us / 1000)}, p99 ${ms(f.p99Us / 1000)} ms; 200: ${f.s200}, 429: ${f.s429}, 503: ${f.s503}, other: ${f.other}, socket errors: ${f.errors}, timeouts: ${f.timeouts}`,
    );
  }
}

console.log(
  "\n| run | home p50 | home p99 | post p50 | post p99 | bare p50 | bare p99 | one search p50 | p99 | refused | flood req/s | flood p50 | 200 | 429 | 503 | other |",
);
console.log(
  "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
);
for (const { label, home, post, bare, search, flood: f } of phases) {
  const cells = [
    label,
    ...[home, post, bare, search].flatMap(({ times }) => [
      ms(percentile(times, 0.5)),
      ms(percentile(times, 0.99)),
    ]),
    failures(search.failed),
    ...(f
      ? [
          ((f.requests * 1e6) / f.durationUs).toFixed(0),
          ms(f.p50Us / 1000),
          f.s200,
          f.s429,
          f.s503,
          f.other + f.errors + f.timeouts,
        ]
      : ["—", "—", "—", "—", "—", "—"]),
  ];
  console.log(`| ${cells.join(" | ")} |`);
}
console.log(
  `(latencies in ms. bare: the home page's bytes from memory; one search: another client (${SEARCHER_ADDRESS}) sending one search at a time; flood: wrk from 127.0.0.1, other = other statuses, socket errors and timeouts)`,
);

const limited = phases.find((phase) => phase.label === "limits on, flood")!;
const homeP99 = percentile(limited.home.times, 0.99);
const postP99 = percentile(limited.post.times, 0.99);
const failed = failures(limited.home.failed) + failures(limited.post.failed);
if (limited.flood && limited.flood.s429 + limited.flood.s503 === 0) {
  console.log(
    "\nnote: with the limits on, the flood had no search refused (429/503): are the limits in this build?",
  );
}
const politeRefused = phases.reduce((sum, phase) => sum + failures(phase.search.failed), 0);
console.log(
  `\nthe client sending one search at a time: ${
    politeRefused
      ? `refused or failed ${politeRefused} times (${phases
          .filter((phase) => phase.search.failed.size)
          .map((phase) => `${phase.label}: ${refusals(phase.search.failed)}`)
          .join("; ")})`
      : "never refused"
  }`,
);
const met = homeP99 < TARGET_P99_MS && postP99 < TARGET_P99_MS && failed === 0;
console.log(
  `target (limits on, under flood: home and cached post p99 < ${TARGET_P99_MS} ms, none failed): ${met ? "met" : "NOT met"} — home p99 ${ms(homeP99)} ms, post p99 ${ms(postP99)} ms${failed ? `, ${failed} failed` : ""}`,
);
process.exitCode = met ? 0 : 1;
