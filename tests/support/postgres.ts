// A throwaway PostgreSQL server for tests: initdb in a temporary directory,
// started on a free loopback port, everything removed on stop(). PostgreSQL
// refuses to run as root, so as root the server runs as the `postgres` user.
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { chmodSync, chownSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { READY_MS } from "#tests/support/limits.ts";
import { atExit, watchOver } from "./cleanup.ts";
import { freePort } from "./server.ts";

export const POSTGRES_SKIP_MESSAGE =
  "PostgreSQL (15, 16 or 17) not installed: apt-get install postgresql; skipping the PostgreSQL tests";

/** POSTGRES_BIN names the one directory to use; otherwise the usual Debian and source-build places. */
const BIN_DIRS = process.env.POSTGRES_BIN
  ? [process.env.POSTGRES_BIN]
  : [
      "/usr/lib/postgresql/15/bin",
      "/usr/lib/postgresql/16/bin",
      "/usr/lib/postgresql/17/bin",
      "/usr/local/pgsql/bin",
    ];

/** The directory holding initdb and postgres, or null. */
export function postgresBinDir(): string | null {
  for (const dir of BIN_DIRS) {
    if (dir && existsSync(path.join(dir, "initdb")) && existsSync(path.join(dir, "postgres"))) return dir;
  }
  return null;
}

/**
 * Whether the PostgreSQL tests can run. Missing binaries throw under CI (CI
 * must have them) and print the skip message otherwise.
 */
export function postgresAvailable(): boolean {
  if (postgresBinDir()) return true;
  if (process.env.CI) throw new Error(`${POSTGRES_SKIP_MESSAGE} (CI must install it)`);
  console.warn(POSTGRES_SKIP_MESSAGE);
  return false;
}

export interface TestPostgres {
  /** postgres://… for a database of this server. */
  url(dbName: string): string;
  /** Creates an empty database and returns its url. */
  createDatabase(name: string): Promise<string>;
  /** The loopback port the server listens on (the same after a restart). */
  port: number;
  /** Stops the server (fast shutdown: open connections are closed), keeping its data. */
  pause(): Promise<void>;
  /** Starts a paused server again on the same port, with the same data; resolves once it answers. */
  resume(): Promise<void>;
  /** pause(), then `whileDown` (if any), then resume(). */
  restart(whileDown?: () => Promise<void>): Promise<void>;
  /** Stops the server and removes its directory. */
  stop(): Promise<void>;
}

interface RunAs {
  uid: number;
  gid: number;
}

function runAs(): RunAs | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const uid = Number(execFileSync("id", ["-u", "postgres"], { encoding: "utf8" }).trim());
  const gid = Number(execFileSync("id", ["-g", "postgres"], { encoding: "utf8" }).trim());
  if (!Number.isInteger(uid) || !Number.isInteger(gid))
    throw new Error("no postgres user to run PostgreSQL as");
  return { uid, gid };
}

async function waitUntilReady(url: string, child: ChildProcess, log: () => string): Promise<void> {
  const deadline = Date.now() + READY_MS;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`PostgreSQL exited at start:\n${log()}`);
    const client = new pg.Client({ connectionString: url });
    try {
      await client.connect();
      await client.query("SELECT 1");
      await client.end();
      return;
    } catch (error) {
      await client.end().catch(() => {
        // The client may never have connected: ending it can fail.
      });
      if (Date.now() > deadline)
        throw new Error(`PostgreSQL did not start: ${(error as Error).message}\n${log()}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}

/**
 * Starts a server; throws when the binaries are missing (check
 * postgresAvailable() first). `settings` are extra server settings
 * (e.g. { shared_buffers: "256MB" } for a benchmark).
 */
export async function startPostgres(
  options: { settings?: Record<string, string> } = {},
): Promise<TestPostgres> {
  const bin = postgresBinDir();
  if (!bin) throw new Error(POSTGRES_SKIP_MESSAGE);
  const user = runAs();
  const dir = mkdtempSync(path.join(tmpdir(), "sukti-pg-"));
  chmodSync(dir, 0o700);
  if (user) chownSync(dir, user.uid, user.gid);
  const data = path.join(dir, "data");
  // Removed by stop(), or by the run's end when a test never stopped it (cleanup.ts).
  const forgetDir = atExit(() => rmSync(dir, { recursive: true, force: true }));
  const cleanup = () => {
    rmSync(dir, { recursive: true, force: true });
    forgetDir();
  };
  try {
    execFileSync(
      path.join(bin, "initdb"),
      ["-D", data, "--no-sync", "--auth=trust", "-U", "postgres", "--locale=C.UTF-8", "-E", "UTF8"],
      { cwd: dir, stdio: "pipe", ...user, env: { ...process.env, LC_ALL: "C.UTF-8" } },
    );
  } catch (error) {
    cleanup();
    const stderr = (error as { stderr?: Buffer }).stderr?.toString() ?? "";
    throw new Error(`initdb failed: ${(error as Error).message}\n${stderr}`);
  }

  interface Running {
    child: ChildProcess;
    exited: Promise<void>;
    output: () => string;
    /** Called once it is stopped: the run's end need not stop it (cleanup.ts). */
    forget: () => void;
  }

  const spawnServer = (port: number): Running => {
    let output = "";
    const child = spawn(
      path.join(bin, "postgres"),
      [
        "-D",
        data,
        "-p",
        String(port),
        "-k",
        dir,
        "-c",
        "listen_addresses=127.0.0.1",
        "-c",
        "fsync=off",
        "-c",
        "synchronous_commit=off",
        "-c",
        "full_page_writes=off",
        "-c",
        "max_connections=100",
        "-c",
        "shared_buffers=64MB",
        "-c",
        "log_min_messages=warning",
        ...Object.entries(options.settings ?? {}).flatMap(([name, value]) => ["-c", `${name}=${value}`]),
      ],
      { cwd: dir, stdio: ["ignore", "pipe", "pipe"], ...user },
    );
    child.stdout?.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.stderr?.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    // A test run that ends without stop() leaves no server behind, nor one ended by a signal (the watchdog).
    const forget = atExit(() => child.kill("SIGQUIT"));
    if (child.pid !== undefined) watchOver(child.pid, dir, "QUIT");
    const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
    return { child, exited, output: () => output, forget };
  };

  /** Fast shutdown (open connections are closed), SIGQUIT after 5 s. */
  const shutDown = async ({ child, exited, forget }: Running): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGINT");
    const timer = setTimeout(() => child.kill("SIGQUIT"), 5000);
    await exited;
    clearTimeout(timer);
    forget();
  };

  for (let attempt = 0; ; attempt++) {
    const port = await freePort();
    const url = (dbName: string) => `postgres://postgres@127.0.0.1:${port}/${encodeURIComponent(dbName)}`;
    let server: Running | null = spawnServer(port);
    try {
      await waitUntilReady(url("postgres"), server.child, server.output);
    } catch (error) {
      server.child.kill("SIGQUIT");
      await server.exited;
      server.forget();
      // Another process may have taken the port between the check and the start.
      if (attempt < 3 && /could not (bind|create listen)|Address already in use/i.test(server.output()))
        continue;
      cleanup();
      throw error;
    }

    let stopped = false;
    const pause = async () => {
      if (!server) return;
      const current = server;
      server = null;
      await shutDown(current);
    };
    const resume = async () => {
      if (server || stopped) return;
      const started = spawnServer(port);
      server = started;
      await waitUntilReady(url("postgres"), started.child, started.output);
    };
    return {
      url,
      port,
      async createDatabase(name) {
        const client = new pg.Client({ connectionString: url("postgres") });
        await client.connect();
        try {
          await client.query(`CREATE DATABASE ${pg.escapeIdentifier(name)}`);
        } finally {
          await client.end();
        }
        return url(name);
      },
      pause,
      resume,
      async restart(whileDown) {
        await pause();
        try {
          await whileDown?.();
        } finally {
          await resume();
        }
      },
      async stop() {
        if (stopped) return;
        stopped = true;
        await pause();
        cleanup();
      },
    };
  }
}

/** Set by tests/support/postgres-global.ts: the port of the server the test files share. */
const SHARED_PORT = "SUKTI_TEST_POSTGRES_PORT";

/**
 * A server for one test file: a database or more of the server the run
 * shares (tests/support/postgres-global.ts, one initdb for every file), else
 * a server of its own. Its databases get names of their own, so files running
 * side by side never meet; stop() drops them. A file that stops or restarts
 * its server (pause, resume, restart) uses startPostgres() instead.
 */
export async function sharedPostgres(): Promise<TestPostgres> {
  const port = Number(process.env[SHARED_PORT]);
  if (!port) return startPostgres();
  const url = (dbName: string) => `postgres://postgres@127.0.0.1:${port}/${encodeURIComponent(dbName)}`;
  const created: string[] = [];
  const admin = async (sql: string) => {
    const client = new pg.Client({ connectionString: url("postgres") });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  const shared = () => {
    throw new Error("the shared PostgreSQL server is never stopped by a test: use startPostgres()");
  };
  return {
    url,
    port,
    async createDatabase(name) {
      const unique = `${name}_${process.pid}_${created.length}`;
      await admin(`CREATE DATABASE ${pg.escapeIdentifier(unique)}`);
      created.push(unique);
      return url(unique);
    },
    pause: async () => shared(),
    resume: async () => shared(),
    restart: async () => shared(),
    async stop() {
      for (const name of created.splice(0))
        await admin(`DROP DATABASE IF EXISTS ${pg.escapeIdentifier(name)} WITH (FORCE)`);
    },
  };
}

/** Starts the shared server (vitest globalSetup); returns what stops it. */
export async function startSharedPostgres(): Promise<() => Promise<void>> {
  if (!postgresBinDir()) return async () => undefined;
  const server = await startPostgres({ settings: { max_connections: "200" } });
  process.env[SHARED_PORT] = String(server.port);
  return () => server.stop();
}
