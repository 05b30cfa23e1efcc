// A throwaway Varnish for tests and benches: Debian's varnishd with
// deploy/varnish/default.vcl (varnish-modules' xkey), its backend pointed at a
// sukti on loopback, in a temporary working directory (-n), in the foreground
// (-F), on a free loopback port below 32768; stopped by stop() and on process
// exit. As root, varnishd's own jail runs the cache process as `vcache`.
import { execFile, spawn } from "node:child_process";
import {
  chmodSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { request } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { READY_MS } from "#tests/support/limits.ts";
import { atExit, watchOver } from "./cleanup.ts";
import { freePort } from "./server.ts";

export const VARNISH_SKIP_MESSAGE =
  "Varnish with xkey not installed: apt-get install varnish varnish-modules; skipping the Varnish tests";

export const VARNISHD = process.env.VARNISHD ?? "/usr/sbin/varnishd";
export const VCL_FILE = path.resolve(import.meta.dirname, "../../deploy/varnish/default.vcl");

/** Where Debian (any architecture) puts varnish-modules' xkey: /usr/lib/<triplet>/varnish/vmods. */
function xkeyFound(): boolean {
  let dirs: string[] = [];
  try {
    dirs = readdirSync("/usr/lib").map((name) => path.join("/usr/lib", name));
  } catch {
    // No /usr/lib to read: no xkey.
  }
  return ["/usr/lib", ...dirs].some((dir) => existsSync(path.join(dir, "varnish/vmods/libvmod_xkey.so")));
}

/**
 * Whether the Varnish tests can run. Missing varnishd or xkey throws under CI
 * (scripts/test.js installs them) and prints the skip message otherwise.
 */
export function varnishAvailable(): boolean {
  if (existsSync(VARNISHD) && xkeyFound()) return true;
  if (process.env.CI) throw new Error(`${VARNISH_SKIP_MESSAGE} (CI must install them)`);
  console.warn(VARNISH_SKIP_MESSAGE);
  return false;
}

export interface TestVarnish {
  /** http://127.0.0.1:port */
  url: string;
  port: number;
  /** The -n working directory (varnishstat, varnishadm). */
  workdir: string;
  /** varnishstat's counters (MAIN.cache_hit, MAIN.cache_miss, MAIN.n_object …), by name. */
  counters(): Promise<Record<string, number>>;
  /** varnishd's output so far. */
  output(): string;
  stop(): Promise<void>;
}

export interface VarnishOptions {
  /** The sukti (or any HTTP server) Varnish fetches from, on 127.0.0.1. */
  backendPort: number;
  /**
   * Addresses of the purgers ACL instead of the shipped loopback ones (a VCL
   * for which this machine is "anyone else"). Written as VCL ACL entries.
   */
  purgers?: string[];
  /** Cache storage (malloc) in MB; 64 by default. */
  storageMb?: number;
}

/** The shipped VCL with its backend port (and, if asked, its purge ACL) replaced. */
export function testVcl(options: VarnishOptions): string {
  let vcl = readFileSync(VCL_FILE, "utf8");
  const port = /(backend sukti \{[^}]*\.port = )"\d+";/;
  if (!port.test(vcl))
    throw new Error(`${VCL_FILE}: no backend sukti with a .port to point at the test server`);
  vcl = vcl.replace(port, `$1"${options.backendPort}";`);
  if (options.purgers) {
    const acl = /acl purgers \{[^}]*\}/;
    if (!acl.test(vcl)) throw new Error(`${VCL_FILE}: no acl purgers to replace`);
    vcl = vcl.replace(acl, `acl purgers {\n${options.purgers.map((entry) => `    ${entry};\n`).join("")}}`);
  }
  return vcl;
}

/** One GET / on a connection of its own: any HTTP answer (even a 503) means Varnish listens. */
function answers(url: string): Promise<boolean> {
  return new Promise((resolve) => {
    const req = request(url, { method: "HEAD", agent: false, timeout: 2_000 }, (res) => {
      res.resume();
      resolve(true);
    });
    req.once("timeout", () => req.destroy());
    req.once("error", () => resolve(false));
    req.end();
  });
}

/** Starts Varnish; throws when varnishd is missing (check varnishAvailable() first). */
export async function startVarnish(options: VarnishOptions): Promise<TestVarnish> {
  if (!existsSync(VARNISHD)) throw new Error(VARNISH_SKIP_MESSAGE);
  const dir = mkdtempSync(path.join(tmpdir(), "sukti-varnish-"));
  // As root, varnishd reads the VCL and compiles it as its own users (varnish, vcache).
  chmodSync(dir, 0o755);
  const vclPath = path.join(dir, "default.vcl");
  writeFileSync(vclPath, testVcl(options), { mode: 0o644 });
  const workdir = path.join(dir, "n");
  const cleanup = () => rmSync(dir, { recursive: true, force: true });

  for (let attempt = 0; ; attempt++) {
    const port = await freePort();
    let output = "";
    const child = spawn(
      VARNISHD,
      [
        "-F",
        "-n",
        workdir,
        "-a",
        `127.0.0.1:${port}`,
        "-f",
        vclPath,
        "-s",
        `malloc,${options.storageMb ?? 64}m`,
        // No management port: varnishadm -n reaches it through the working directory.
        "-T",
        "none",
        // Small thread pools: a test or a bench on a shared 2-core machine.
        "-p",
        "thread_pools=1",
        "-p",
        "thread_pool_min=10",
      ],
      { cwd: dir, stdio: ["ignore", "pipe", "pipe"] },
    );
    child.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
    // A run that ends without stop() leaves no Varnish behind (the manager stops its child), nor one
    // ended by a signal (the watchdog).
    const forget = atExit(() => child.kill("SIGTERM"));
    if (child.pid !== undefined) watchOver(child.pid, dir, "TERM");
    const exited = new Promise<void>((resolve) =>
      child.once("exit", () => {
        forget();
        resolve();
      }),
    );
    const stopChild = async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
      await exited;
      clearTimeout(timer);
    };

    const url = `http://127.0.0.1:${port}`;
    const deadline = Date.now() + READY_MS;
    let ready = false;
    while (!ready) {
      if (child.exitCode !== null || child.signalCode !== null) break;
      ready = await answers(url);
      if (!ready) {
        if (Date.now() > deadline) break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
    if (!ready) {
      await stopChild();
      // Another process may have taken the port between the probe and the start.
      if (attempt < 3 && /Address already in use|Could not get socket/i.test(output)) continue;
      cleanup();
      throw new Error(`varnishd did not start:\n${output}`);
    }

    return {
      url,
      port,
      workdir,
      output: () => output,
      async counters() {
        const { stdout } = await promisify(execFile)("varnishstat", ["-n", workdir, "-1", "-j"], {
          encoding: "utf8",
        });
        const parsed = JSON.parse(stdout) as {
          counters?: Record<string, { value: number }>;
        } & Record<string, { value?: number }>;
        // varnishstat -j: { version, timestamp, counters: {...} } (7.x) or flat (6.x).
        const entries = parsed.counters ?? parsed;
        const counters: Record<string, number> = {};
        for (const [name, counter] of Object.entries(entries)) {
          if (counter && typeof counter === "object" && typeof counter.value === "number")
            counters[name] = counter.value;
        }
        return counters;
      },
      async stop() {
        await stopChild();
        cleanup();
      },
    };
  }
}
