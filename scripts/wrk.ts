// Debian's `wrk`, shared by the load benches (bench.ts, bench-stores.ts,
// bench-flood.ts): make sure it is there, and run it for one URL without
// blocking this process.

import { execFile, spawnSync } from "node:child_process";
import { get } from "node:http";
import { promisify } from "node:util";

/** One wrk thread (one core), 16 connections: what every bench measures with. */
export const WRK_THREADS = 1;
/**
 * What every load test asks for, as browsers do: pages are measured as
 * browsers get them (the page cache holds them compressed, decision 074),
 * and the bare server answers the same compressed bytes (getAsWrk).
 */
export const ACCEPT_ENCODING = "br, gzip";
/** wrk's arguments for that header. */
export const WRK_HEADERS = ["-H", `Accept-Encoding: ${ACCEPT_ENCODING}`];
export const WRK_CONNECTIONS = 16;

export interface WrkFigures {
  rps: number;
  /** Latency percentiles, in ms. */
  p50: number;
  p99: number;
  requests: number;
  /** "Non-2xx or 3xx responses". */
  non2xx: number;
  /** Socket errors: connect, read, write and timeouts together. */
  socketErrors: number;
}

/** wrk prints its usage and exits 1 for -v: only a missing binary counts. */
function wrkFound(): boolean {
  return spawnSync("wrk", ["-v"], { stdio: "ignore" }).error === undefined;
}

/** wrk's own first line, e.g. "wrk debian/4.1.0-3+b2 [epoll]". */
export function wrkVersion(): string {
  const out = spawnSync("wrk", ["-v"], { encoding: "utf8" });
  return `${out.stdout ?? ""}${out.stderr ?? ""}`.split("\n")[0]!.replace(/\s+Copyright.*$/, "");
}

/**
 * Exits 2 with one clear line unless wrk can be run. As root, installs
 * Debian's package first (quietly, as scripts/test.js installs Chromium).
 */
export function ensureWrk(script: string): void {
  if (wrkFound()) return;
  if (process.getuid?.() === 0) {
    console.log(`${script}: installing Debian's wrk…`);
    const install = spawnSync(
      "sh",
      ["-c", "apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk"],
      { encoding: "utf8" },
    );
    if (install.status !== 0) process.stdout.write(`${install.stdout ?? ""}${install.stderr ?? ""}`);
    if (wrkFound()) return;
  }
  console.error(`${script}: wrk is missing: install Debian's package (apt-get install wrk) and run again`);
  process.exit(2);
}

/** A latency as wrk prints it ("812.00us", "1.23ms", "2.01s", "1.50m"), in ms. */
function toMs(value: string, unit: string): number {
  const n = Number(value);
  if (unit === "us") return n / 1000;
  if (unit === "s") return n * 1000;
  if (unit === "m") return n * 60_000;
  return n;
}

/** wrk's figures from its `--latency` output. */
export function parseWrk(out: string): WrkFigures {
  const percentile = (p: number) => {
    const match = new RegExp(`^\\s*${p}%\\s+([\\d.]+)(us|ms|s|m)\\s*$`, "m").exec(out);
    return match ? toMs(match[1]!, match[2]!) : Number.NaN;
  };
  const socket = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(out);
  return {
    rps: Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1] ?? 0),
    p50: percentile(50),
    p99: percentile(99),
    requests: Number(/(\d+) requests in /.exec(out)?.[1] ?? 0),
    non2xx: Number(/Non-2xx or 3xx responses:\s+(\d+)/.exec(out)?.[1] ?? 0),
    socketErrors: socket ? socket.slice(1).reduce((sum, count) => sum + Number(count), 0) : 0,
  };
}

/**
 * `wrk -t1 -c16 -d<seconds>s --latency <url>`. Run with the asynchronous
 * execFile: a blocked event loop here would let a keep-alive socket go stale
 * under this process's own clients (and stall a server it hosts).
 */
export async function wrk(
  url: string,
  {
    seconds,
    connections = WRK_CONNECTIONS,
    script,
  }: {
    seconds: number;
    connections?: number;
    /** A wrk Lua script and the arguments its init() gets (addresses made per request). */
    script?: { file: string; args: string[] };
  },
): Promise<WrkFigures> {
  const args = [`-t${WRK_THREADS}`, `-c${connections}`, `-d${seconds}s`, "--latency", ...WRK_HEADERS];
  if (script) args.push("-s", script.file, url, "--", ...script.args);
  else args.push(url);
  try {
    const { stdout } = await promisify(execFile)("wrk", args, {
      encoding: "utf8",
      // wrk stops by itself after `seconds`; this only guards against a hang.
      timeout: (seconds + 30) * 1000,
      killSignal: "SIGKILL",
    });
    return parseWrk(stdout);
  } catch (error) {
    const { stdout, stderr, message } = error as Error & { stdout?: string; stderr?: string };
    throw new Error(`wrk ${args.join(" ")}: ${message}\n${stdout ?? ""}${stderr ?? ""}`);
  }
}

/**
 * One page as wrk gets it (ACCEPT_ENCODING), on a connection of its own: its
 * status, its bytes as sent, and their Content-Encoding, for a bare server
 * to answer with the same.
 */
export function getAsWrk(
  url: string,
  timeoutMs = 30_000,
): Promise<{ status: number; body: Buffer; encoding: string | undefined }> {
  return new Promise((resolve, reject) => {
    const request = get(
      url,
      { agent: false, timeout: timeoutMs, headers: { "accept-encoding": ACCEPT_ENCODING } },
      (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.once("end", () => {
          const encoding = response.headers["content-encoding"];
          resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks), encoding });
        });
        response.once("error", reject);
      },
    );
    request.once("timeout", () => request.destroy(new Error(`${url}: no answer in ${timeoutMs / 1000} s`)));
    request.once("error", reject);
  });
}
