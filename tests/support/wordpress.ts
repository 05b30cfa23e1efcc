// A throwaway WordPress for tests, started as tests/support/postgres.ts starts
// PostgreSQL: Debian's `wordpress` package (6.1, /usr/share/wordpress) on
// MariaDB (mariadbd on an empty data directory in a temporary directory, its own
// socket, a loopback port) behind PHP's built-in server with a router script
// (pretty permalinks: /wp-json/ works). Debian's wp-config.php reads
// /etc/wordpress/config-HOST.php; this one never touches /etc: the temporary
// directory holds a WordPress of its own, WordPress's top-level PHP files
// copied (PHP resolves symlinks in __FILE__, and wp-load.php looks for
// wp-config.php beside itself), wp-admin and wp-includes linked, wp-content and
// wp-config.php its own. Posts are made and changed through WordPress's own
// PHP API (tests/support/wordpress/act.php run with wp-load.php).
// Everything is stopped and the directory removed by stop(), and on exit.
import { type ChildProcess, execFile, execFileSync, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import {
  appendFileSync,
  chmodSync,
  chownSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  unlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { READY_MS } from "#tests/support/limits.ts";
import {
  atExit,
  isSameGroup,
  SAME_PROCESS_SH,
  sameGroupTest,
  sameProcessTest,
  startTimeOf,
} from "./cleanup.ts";
import { freePort } from "./server.ts";

export const WORDPRESS_SKIP_MESSAGE =
  "WordPress, MariaDB or PHP not installed: apt-get install wordpress mariadb-server php-cli php-mysql; skipping the WordPress tests";

/** Debian's WordPress; WORDPRESS_DIR=/nonexistent skips the WordPress tests (as POSTGRES_BIN does PostgreSQL's). */
const WORDPRESS_DIR = process.env.WORDPRESS_DIR || "/usr/share/wordpress";
const SUPPORT = path.join(import.meta.dirname, "wordpress");

function which(
  name: string,
  dirs = ["/usr/sbin", "/usr/bin", "/usr/local/sbin", "/usr/local/bin"],
): string | null {
  for (const dir of dirs) if (existsSync(path.join(dir, name))) return path.join(dir, name);
  return null;
}

/** What is missing to start a WordPress: package names, empty when all is there. */
export function wordpressMissing(): string[] {
  const missing: string[] = [];
  if (!existsSync(path.join(WORDPRESS_DIR, "wp-settings.php"))) missing.push("wordpress");
  if (!which("mariadbd")) missing.push("mariadb-server");
  const php = which("php");
  if (!php) missing.push("php-cli", "php-mysql");
  else {
    try {
      execFileSync(php, ["-r", 'exit(extension_loaded("mysqli") ? 0 : 1);'], { stdio: "ignore" });
    } catch {
      missing.push("php-mysql");
    }
  }
  return missing;
}

/**
 * Whether the WordPress tests can run. Missing packages throw under CI (CI
 * must have them) and print the skip message otherwise.
 */
export function wordpressAvailable(): boolean {
  const missing = wordpressMissing();
  if (missing.length === 0) return true;
  const message = `${WORDPRESS_SKIP_MESSAGE} (missing: ${missing.join(", ")})`;
  if (process.env.CI) throw new Error(`${message} (CI must install them)`);
  console.warn(message);
  return false;
}

export interface PostFields {
  title?: string;
  content?: string;
  excerpt?: string;
  /** publish (the default for create), draft, private, pending, future. */
  status?: string;
  /** Local time, "YYYY-MM-DD HH:MM:SS". */
  date?: string;
  slug?: string;
  password?: string;
  /** A user's login (see user()). */
  author?: string;
  /** Category names or slugs; made when missing. */
  categories?: string[];
  /** Tag names; made when missing. */
  tags?: string[];
  /** A file attached (media_handle_sideload) and set as the featured image. */
  image?: string;
}

export interface WordPressPost {
  id: number;
  title: string;
  status: string;
  modified_gmt: string;
  /** The featured image's attachment id, 0 for none. */
  thumbnail: number;
}

export interface TestWordPress {
  /** http://127.0.0.1:PORT, no trailing slash. */
  url: string;
  /** The admin's login is "admin". */
  adminPassword: string;
  /** The temporary directory (wp/ is the document root, wp/wp-content/uploads the media). */
  dir: string;
  /** Runs act.php actions in one PHP process; their results in order. */
  act<T = unknown>(actions: Record<string, unknown>[]): Promise<T[]>;
  user(login: string, fields?: { name?: string; role?: string; password?: string }): Promise<number>;
  category(name: string, slug?: string): Promise<number>;
  createPost(fields: PostFields): Promise<number>;
  /** Changes the given fields (wp_update_post). */
  editPost(id: number, fields: PostFields): Promise<void>;
  /** wp_trash_post. */
  trashPost(id: number): Promise<void>;
  /** wp_delete_post with force: gone, not in the trash. */
  deletePost(id: number): Promise<void>;
  /** Sets the status to draft (or private, pending). */
  unpublishPost(id: number, status?: "draft" | "private" | "pending"): Promise<void>;
  /** Attaches a new file and makes it the featured image. */
  setFeaturedImage(id: number, file: string): Promise<number>;
  getPost(id: number): Promise<WordPressPost | null>;
  /** Writes a JPEG (GD) of one colour with a label; returns its path. */
  makeImage(
    name: string,
    options?: { width?: number; height?: number; rgb?: [number, number, number] },
  ): Promise<string>;
  /** An application password for a user (for --user and SUKTI_WP_PASSWORD). */
  applicationPassword(login: string): Promise<string>;
  /** Requests the built-in server has answered or is answering: "GET /wp-json/…" lines, oldest first. */
  requests(): string[];
  /**
   * From now on, requests whose URI matches `pattern` wait; `reached` resolves
   * with the first such URI, `release` lets them (and later ones) through.
   */
  hold(pattern: RegExp): { reached: () => Promise<string>; release: () => void };
  /** Stops PHP and MariaDB and removes the directory. */
  stop(): Promise<void>;
}

interface Started {
  child: ChildProcess;
  /** Its start time (cleanup.ts): its group's number is checked against it before a kill. */
  start: string | null;
  exited: Promise<void>;
  output: () => string;
  /** Called once it is stopped: the run's end need not kill it (cleanup.ts). */
  forget: () => void;
}

function start(command: string, args: string[], options: Parameters<typeof spawn>[2]): Started {
  let output = "";
  // Its own process group: PHP's built-in server forks workers, which a kill of the group ends too.
  const child = spawn(command, args, { ...options, detached: true, stdio: ["ignore", "pipe", "pipe"] });
  const start = child.pid ? startTimeOf(child.pid) : null;
  // The watchdog (see watch()) kills the groups listed here, each with its leader's start time.
  if (child.pid && start && typeof options?.cwd === "string")
    appendFileSync(path.join(options.cwd, "groups"), `${child.pid} ${start}\n`);
  child.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  // A test run that ends without stop() leaves no server behind.
  const forget = atExit(() => killGroup({ child, start }, "SIGKILL"));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  return { child, start, exited, output: () => output, forget };
}

/**
 * A shell that outlives this process: once it is gone (a fork killed by
 * SIGTERM or SIGKILL runs no exit hook), it kills the process groups listed
 * in DIR/groups and removes DIR. Killed by stop().
 */
function watch(dir: string): ChildProcess {
  const quoted = `'${dir.replaceAll("'", "'\\''")}'`;
  const tester = sameProcessTest(process.pid, startTimeOf(process.pid));
  const script = [
    SAME_PROCESS_SH,
    `while ${tester} && [ -d ${quoted} ]; do sleep 1; done`,
    `[ -f ${quoted}/groups ] && while read -r group start; do ${sameGroupTest("$group", "$start")} && kill -9 -$group 2>/dev/null; done < ${quoted}/groups`,
    `rm -rf ${quoted}`,
  ].join("\n");
  const watchdog = spawn("sh", ["-c", script], { detached: true, stdio: "ignore" });
  watchdog.unref();
  return watchdog;
}

async function waitFor(what: string, ready: () => Promise<boolean> | boolean, proc: Started): Promise<void> {
  const deadline = Date.now() + READY_MS;
  for (;;) {
    if (proc.child.exitCode !== null || proc.child.signalCode !== null)
      throw new Error(`${what} exited at start:\n${proc.output()}`);
    if (await ready()) return;
    if (Date.now() > deadline) throw new Error(`${what} did not start within 60 s:\n${proc.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function killGroup({ child, start }: Pick<Started, "child" | "start">, signal: NodeJS.Signals): void {
  // Its number may name another test's group once every process of this one is gone (cleanup.ts).
  if (!child.pid || !isSameGroup(child.pid, start)) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // The group is gone already.
  }
}

async function stopProcess(started: Started, signal: NodeJS.Signals = "SIGTERM"): Promise<void> {
  const { child, exited, forget } = started;
  if (child.exitCode === null && child.signalCode === null) killGroup(started, signal);
  const timer = setTimeout(() => killGroup(started, "SIGKILL"), 10_000);
  await exited;
  clearTimeout(timer);
  // PHP's workers outlive their parent: the group is ended after it.
  killGroup(started, "SIGKILL");
  forget();
}

function mysqlUser(): { uid: number; gid: number } | undefined {
  // mariadbd refuses to run as root (without --user=root): as root it runs as `mysql`.
  if (process.getuid?.() !== 0) return undefined;
  const uid = Number(execFileSync("id", ["-u", "mysql"], { encoding: "utf8" }).trim());
  const gid = Number(execFileSync("id", ["-g", "mysql"], { encoding: "utf8" }).trim());
  if (!Number.isInteger(uid) || !Number.isInteger(gid)) throw new Error("no mysql user to run MariaDB as");
  return { uid, gid };
}

function phpString(value: string): string {
  return `'${value.replaceAll("\\", "\\\\").replaceAll("'", "\\'")}'`;
}

/** The WordPress tree of the temporary directory (see the top of this file). */
function makeTree(dir: string, url: string, socket: string): void {
  const root = path.join(dir, "wp");
  mkdirSync(root);
  for (const name of readdirSync(WORDPRESS_DIR)) {
    if (name === "wp-config.php" || name === "wp-content") continue;
    const from = path.join(WORDPRESS_DIR, name);
    if (statSync(from).isDirectory()) symlinkSync(from, path.join(root, name));
    else copyFileSync(from, path.join(root, name));
  }
  const content = path.join(root, "wp-content");
  for (const sub of ["plugins", "themes", "mu-plugins", "uploads", "upgrade"])
    mkdirSync(path.join(content, sub), { recursive: true });
  copyFileSync(path.join(SUPPORT, "mu-plugin.php"), path.join(content, "mu-plugins", "sukti-test.php"));
  const salts = [
    "AUTH_KEY",
    "SECURE_AUTH_KEY",
    "LOGGED_IN_KEY",
    "NONCE_KEY",
    "AUTH_SALT",
    "SECURE_AUTH_SALT",
    "LOGGED_IN_SALT",
    "NONCE_SALT",
  ]
    .map((name) => `define('${name}', '${randomBytes(24).toString("hex")}');`)
    .join("\n");
  writeFileSync(
    path.join(root, "wp-config.php"),
    `<?php
// Written by tests/support/wordpress.ts for one test WordPress.
define('DB_NAME', 'wordpress');
define('DB_USER', 'root');
define('DB_PASSWORD', '');
define('DB_HOST', ${phpString(`localhost:${socket}`)});
define('DB_CHARSET', 'utf8mb4');
define('DB_COLLATE', '');
${salts}
$table_prefix = 'wp_';
define('WP_HOME', ${phpString(url)});
define('WP_SITEURL', ${phpString(url)});
define('WP_CONTENT_DIR', ${phpString(content)});
define('WP_CONTENT_URL', ${phpString(`${url}/wp-content`)});
define('WP_DEBUG', false);
define('WP_DEBUG_DISPLAY', false);
define('DISABLE_WP_CRON', true);
define('AUTOMATIC_UPDATER_DISABLED', true);
define('WP_AUTO_UPDATE_CORE', false);
// No request leaves the machine (update checks, oEmbed discovery).
define('WP_HTTP_BLOCK_EXTERNAL', true);
// Application passwords need HTTPS or a local environment.
define('WP_ENVIRONMENT_TYPE', 'local');
define('FS_METHOD', 'direct');
if (!defined('ABSPATH')) define('ABSPATH', __DIR__ . '/');
require_once ABSPATH . 'wp-settings.php';
`,
  );
  copyFileSync(path.join(SUPPORT, "router.php"), path.join(dir, "router.php"));
  copyFileSync(path.join(SUPPORT, "act.php"), path.join(dir, "act.php"));
  writeFileSync(path.join(dir, "site.json"), JSON.stringify({ host: new URL(url).host }));
}

function runPhp(dir: string, input: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      "php",
      ["-d", "display_errors=stderr", "-d", "memory_limit=256M", path.join(dir, "act.php")],
      { cwd: dir, maxBuffer: 64 * 1024 * 1024, timeout: 120_000 },
      (error, stdout, stderr) => {
        if (error) {
          let message = stdout;
          try {
            message = (JSON.parse(stdout) as { error?: string }).error ?? stdout;
          } catch {
            // Not JSON: PHP's own output says what went wrong.
          }
          reject(new Error(`WordPress action failed: ${message}\n${stderr}`));
        } else resolve(stdout);
      },
    );
    child.stdin?.end(input);
  });
}

/**
 * Starts a WordPress (installed, permalinks /%year%/%monthnum%/%postname%/,
 * categories English, Hindi and Marathi); throws when a package is missing
 * (check wordpressAvailable() first).
 */
export async function startWordPress(options: { title?: string } = {}): Promise<TestWordPress> {
  const missing = wordpressMissing();
  if (missing.length > 0) throw new Error(`${WORDPRESS_SKIP_MESSAGE} (missing: ${missing.join(", ")})`);
  const dir = mkdtempSync(path.join(tmpdir(), "sukti-wp-"));
  // Nor a directory.
  const forgetDir = atExit(() => rmSync(dir, { recursive: true, force: true }));
  chmodSync(dir, 0o755);
  const started: Started[] = [];
  const watchdog = watch(dir);
  const cleanup = async () => {
    watchdog.kill("SIGKILL");
    // Nothing of theirs is kept: MariaDB and PHP are killed, not shut down.
    for (const running of started.reverse()) await stopProcess(running, "SIGKILL");
    rmSync(dir, { recursive: true, force: true });
    forgetDir();
  };

  const t0 = Date.now();
  const phase = (what: string) => {
    if (process.env.SUKTI_WP_TIMING) console.log(`wordpress: ${what} at ${Date.now() - t0} ms`);
  };
  try {
    // MariaDB: a data directory of its own, owned by the user it runs as.
    const user = mysqlUser();
    const data = path.join(dir, "db");
    mkdirSync(data);
    if (user) chownSync(data, user.uid, user.gid);
    const socket = path.join(data, "mysqld.sock");
    const initFile = path.join(data, "init.sql");
    writeFileSync(
      initFile,
      "CREATE DATABASE IF NOT EXISTS wordpress CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci;\n",
    );
    let mariadb: Started | null = null;
    for (let attempt = 0; !mariadb; attempt++) {
      const dbPort = await freePort();
      const candidate = start(
        which("mariadbd")!,
        [
          "--no-defaults",
          `--datadir=${data}`,
          `--socket=${socket}`,
          `--port=${dbPort}`,
          "--bind-address=127.0.0.1",
          ...(user ? ["--user=mysql"] : []),
          `--pid-file=${path.join(data, "mysqld.pid")}`,
          `--init-file=${initFile}`,
          // No mariadb-install-db (3–8 s on a busy machine): an empty data directory and no
          // privilege tables, so anyone reaching this loopback port or socket may do anything,
          // which a throwaway test server allows. WordPress needs none of the mysql schema.
          "--skip-grant-tables",
          "--skip-name-resolve",
          "--skip-log-bin",
          "--innodb-flush-method=nosync",
          "--innodb-buffer-pool-size=32M",
          "--innodb-log-file-size=16M",
          "--innodb-flush-log-at-trx-commit=0",
          "--innodb-doublewrite=0",
          "--performance-schema=OFF",
          "--character-set-server=utf8mb4",
          "--collation-server=utf8mb4_unicode_ci",
        ],
        { cwd: dir },
      );
      started.push(candidate);
      try {
        await waitFor("MariaDB", () => /ready for connections/.test(candidate.output()), candidate);
        mariadb = candidate;
      } catch (error) {
        await stopProcess(candidate, "SIGKILL");
        started.pop();
        if (attempt < 3 && /Address already in use|Can't start server: Bind/i.test(candidate.output()))
          continue;
        throw error;
      }
    }

    phase("MariaDB ready");
    // PHP's built-in server on a port of its own; WordPress's URL names it.
    for (let attempt = 0; ; attempt++) {
      const port = await freePort();
      const url = `http://127.0.0.1:${port}`;
      if (attempt === 0) makeTree(dir, url, socket);
      else {
        rmSync(path.join(dir, "wp"), { recursive: true, force: true });
        makeTree(dir, url, socket);
      }
      const php = start(
        "php",
        [
          "-d",
          "display_errors=stderr",
          "-S",
          `127.0.0.1:${port}`,
          "-t",
          path.join(dir, "wp"),
          path.join(dir, "router.php"),
        ],
        // Workers: a held request (hold()) must not hold up the others.
        { cwd: dir, env: { ...process.env, PHP_CLI_SERVER_WORKERS: "4" } },
      );
      started.push(php);
      try {
        await waitFor("PHP's built-in server", () => /Development Server .* started/.test(php.output()), php);
      } catch (error) {
        await stopProcess(php, "SIGKILL");
        started.pop();
        if (attempt < 3 && /Address already in use/i.test(php.output())) continue;
        throw error;
      }
      phase("PHP ready");
      const adminPassword = randomBytes(12).toString("hex");
      const wp = makeHandle(dir, url, adminPassword, cleanup);
      await wp.act([
        { action: "install", title: options.title ?? "Sukti test WordPress", password: adminPassword },
        { action: "category", name: "English", slug: "english" },
        { action: "category", name: "Hindi", slug: "hindi" },
        { action: "category", name: "Marathi", slug: "marathi" },
      ]);
      phase("WordPress installed");
      // The REST API answers through the permalinks (the router, rewrite rules in place).
      const response = await fetch(`${url}/wp-json/wp/v2/categories?per_page=100`);
      if (!response.ok) throw new Error(`WordPress's REST API answered ${response.status}:\n${php.output()}`);
      return wp;
    }
  } catch (error) {
    await cleanup();
    throw error;
  }
}

function makeHandle(
  dir: string,
  url: string,
  adminPassword: string,
  cleanup: () => Promise<void>,
): TestWordPress {
  let stopped = false;
  let images = 0;
  const act = async <T>(actions: Record<string, unknown>[]): Promise<T[]> =>
    JSON.parse(await runPhp(dir, JSON.stringify(actions))) as T[];
  const one = async <T>(action: Record<string, unknown>): Promise<T> => (await act<T>([action]))[0]!;
  return {
    url,
    adminPassword,
    dir,
    act,
    user: async (login, fields = {}) => (await one<{ id: number }>({ action: "user", login, ...fields })).id,
    category: async (name, slug) => (await one<{ id: number }>({ action: "category", name, slug })).id,
    createPost: async (fields) => (await one<{ id: number }>({ action: "create", ...fields })).id,
    editPost: async (id, fields) => {
      await one({ action: "update", id, ...fields });
    },
    trashPost: async (id) => {
      await one({ action: "trash", id });
    },
    deletePost: async (id) => {
      await one({ action: "delete", id });
    },
    unpublishPost: async (id, status = "draft") => {
      await one({ action: "update", id, status });
    },
    setFeaturedImage: async (id, file) =>
      (await one<{ id: number }>({ action: "image", id, image: file })).id,
    getPost: (id) => one<WordPressPost | null>({ action: "get", id }),
    makeImage: async (name, options = {}) => {
      const file = path.join(dir, "images", name);
      mkdirSync(path.dirname(file), { recursive: true });
      images++;
      await one({
        action: "makeImage",
        path: file,
        width: options.width ?? 640,
        height: options.height ?? 480,
        rgb: options.rgb ?? [(images * 70) % 256, (images * 130) % 256, (images * 40) % 256],
        text: name,
      });
      return file;
    },
    applicationPassword: async (login) =>
      (await one<{ password: string }>({ action: "applicationPassword", user: login })).password,
    requests: () => {
      const log = path.join(dir, "requests.log");
      return existsSync(log) ? readFileSync(log, "utf8").split("\n").filter(Boolean) : [];
    },
    hold: (pattern) => {
      const heldFile = path.join(dir, "held");
      const holdFile = path.join(dir, "hold.json");
      rmSync(heldFile, { force: true });
      // PCRE: the pattern's source between delimiters PHP's preg_match accepts.
      writeFileSync(holdFile, JSON.stringify({ pattern: `~${pattern.source.replaceAll("~", "\\~")}~` }));
      return {
        reached: async () => {
          const deadline = Date.now() + READY_MS;
          for (;;) {
            if (existsSync(heldFile)) return readFileSync(heldFile, "utf8").split("\n")[0]!;
            if (Date.now() > deadline) throw new Error(`no request matched ${pattern} within 120 s`);
            await new Promise((resolve) => setTimeout(resolve, 50));
          }
        },
        release: () => {
          if (existsSync(holdFile)) unlinkSync(holdFile);
        },
      };
    },
    stop: async () => {
      if (stopped) return;
      stopped = true;
      await cleanup();
    },
  };
}
