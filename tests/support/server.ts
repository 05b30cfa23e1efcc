import { type ChildProcess, spawn } from "node:child_process";
import { copyFileSync, mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { READY_MS } from "#tests/support/limits.ts";
import { atExit, watchOver } from "./cleanup.ts";

export const TEST_SEED = 20261122;

/** Where the run's demo database is (tests/support/demo-database-global.ts), when there is one. */
export const DEMO_DB_ENV = "SUKTI_TEST_DEMO_DB";

export interface RunningServer {
  url: string;
  dbPath: string;
  dir: string;
  child: ChildProcess;
  output: () => string;
  stop: () => Promise<number | null>;
}

/** A port drawn at random from 20,000–31,999: below the ephemeral range, where test servers live. */
export function randomTestPort(): number {
  return 20_000 + Math.floor(Math.random() * 12_000);
}

/**
 * A free loopback port below the ephemeral range (32768 and up), where the
 * kernel's own outgoing connections never take it between probe and listen.
 */
export async function freePort(): Promise<number> {
  for (;;) {
    const port = randomTestPort();
    const free = await new Promise<boolean>((resolve) => {
      const probe = createServer();
      probe.once("error", () => resolve(false));
      probe.listen(port, "127.0.0.1", () => probe.close(() => resolve(true)));
    });
    if (free) return port;
  }
}

/**
 * Starts the built production server (`node server.js`) on a loopback port with
 * its own database file, and waits until /healthz answers. The benchmark
 * scripts use it too (with `npm start`'s Node flags and no fixed seed).
 */
export async function startServer(
  options: {
    dbPath?: string;
    env?: Record<string, string | undefined>;
    nodeArgs?: string[];
    /** Open-file limit of the server process (prlimit --nofile). */
    fileLimit?: number;
    /** Run the server as this user and group (as root only): file permissions do not bind root. */
    uid?: number;
    gid?: number;
    /**
     * The server creates and seeds its database itself. Without it, a server given no
     * database of its own starts on a copy of the run's demo database when Vitest made one.
     */
    freshDatabase?: boolean;
    /** Where `server.js` and build/ are: a copy of the checkout (another build); the checkout by default. */
    cwd?: string;
    /** Listen on this port (a restart at the same address); a free one by default. */
    port?: number;
  } = {},
): Promise<RunningServer> {
  const dir = mkdtempSync(path.join(tmpdir(), "sukti-test-"));
  // Removed at the latest when the run ends, whether or not its server still runs.
  atExit(() => rmSync(dir, { recursive: true, force: true }));
  const dbPath = options.dbPath ?? path.join(dir, "sukti.db");
  const demo = process.env[DEMO_DB_ENV];
  if (demo && !options.dbPath && !options.env?.DATABASE_URL && !options.freshDatabase)
    copyFileSync(demo, dbPath);
  const port = options.port ?? (await freePort());
  const command = [process.execPath, ...(options.nodeArgs ?? []), "server.js"];
  if (options.fileLimit) command.unshift("prlimit", `--nofile=${options.fileLimit}:${options.fileLimit}`);
  const child = spawn(command[0]!, command.slice(1), {
    cwd: options.cwd ?? path.resolve(import.meta.dirname, "../.."),
    env: {
      ...process.env,
      NODE_ENV: "production",
      HOST: "127.0.0.1",
      PORT: String(port),
      DATABASE_URL: `file:${dbPath}`,
      LOG_LEVEL: "warn",
      SUKTI_RANDOM_SEED: String(TEST_SEED),
      SHARE_IMAGE_DIR: path.join(dir, "share-images"),
      // One process unless a test asks for workers (server/cluster.ts).
      WEB_CONCURRENCY: "1",
      // Nothing rendered ahead unless a test asks: many count a first answer as a render (MISS).
      WARM_UP: "off",
      ...options.env,
    },
    stdio: ["ignore", "pipe", "pipe"],
    uid: options.uid,
    gid: options.gid,
  });
  // A test that timed out while its server started never stops it: the run's end does.
  const forget = atExit(() => child.kill("SIGKILL"));
  if (child.pid !== undefined) watchOver(child.pid, dir);
  let output = "";
  child.stdout?.on("data", (chunk) => (output += chunk));
  child.stderr?.on("data", (chunk) => (output += chunk));
  const url = `http://127.0.0.1:${port}`;
  // Said only of a server that was up: one that fails to start is thrown with its output.
  let ready = false;
  let stopping = false;
  const exited = new Promise<number | null>((resolve) =>
    child.once("exit", (code, signal) => {
      forget();
      // A server that ended before its test stopped it (a crash, a kill from elsewhere): what it said
      // goes to the run's log, where a test that then finds it gone cannot show it.
      if (ready && !stopping)
        process.stderr.write(
          `[test server ${url} (pid ${child.pid}) exited unasked: code ${code}, signal ${signal}]\n${output.slice(-4000)}\n`,
        );
      resolve(code);
    }),
  );

  const deadline = Date.now() + READY_MS;
  for (;;) {
    if (child.exitCode !== null) {
      rmSync(dir, { recursive: true, force: true });
      throw new Error(`server exited with ${child.exitCode}:\n${output}`);
    }
    try {
      const response = await fetch(`${url}/healthz`);
      if (response.ok) {
        ready = true;
        break;
      }
    } catch {
      // Not listening yet: it is asked again until the deadline.
    }
    if (Date.now() > deadline) {
      stopping = true;
      child.kill("SIGKILL");
      rmSync(dir, { recursive: true, force: true });
      throw new Error(`server did not start:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }

  return {
    url,
    dbPath,
    dir,
    child,
    output: () => output,
    stop: async () => {
      stopping = true;
      if (child.exitCode === null) child.kill("SIGTERM");
      const code = await exited;
      rmSync(dir, { recursive: true, force: true });
      return code;
    },
  };
}
