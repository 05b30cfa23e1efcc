// The test servers' watchdogs (tests/support/server.ts, cleanup.ts) name a
// process by its pid and its start time: this machine's pids wrap at 32,768,
// and a watchdog that killed a server's old pid once its test process was gone
// killed whatever process had that pid by then (seen: another file's server,
// refused connections in the middle of its test).
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, expect, test } from "vitest";
import {
  SAME_PROCESS_SH,
  sameGroupTest,
  sameProcessTest,
  startTimeOf,
  watchdogScript,
} from "#tests/support/cleanup.ts";
import { postgresAvailable } from "#tests/support/postgres.ts";
import { varnishAvailable } from "#tests/support/varnish.ts";

const started: ChildProcess[] = [];
const dirs: string[] = [];
/** Servers a killed test process left, for a watchdog to stop: stopped here if it did not (the same process). */
const left: { pid: number; start: string | null }[] = [];
afterEach(() => {
  for (const child of started.splice(0)) child.kill("SIGKILL");
  for (const { pid, start } of left.splice(0)) {
    if (start === null || startTimeOf(pid) !== start) continue;
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // Gone meanwhile, as the watchdog should have made it.
    }
  }
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function sleeper(): ChildProcess & { pid: number } {
  const child = spawn("sleep", ["120"], { stdio: "ignore" });
  started.push(child);
  if (child.pid === undefined) throw new Error("sleep did not start");
  return child as ChildProcess & { pid: number };
}

const exited = (child: ChildProcess) =>
  child.exitCode !== null || child.signalCode !== null
    ? Promise.resolve()
    : new Promise<void>((resolve) => child.once("exit", () => resolve()));

/** What the shell says of a test (sameProcessTest, sameGroupTest). */
const holds = (shellTest: string) =>
  execFileSync("sh", ["-c", `${SAME_PROCESS_SH}\nif ${shellTest}; then echo yes; else echo no; fi`])
    .toString()
    .trim() === "yes";

async function until(done: () => boolean, what: string): Promise<void> {
  // Generous: the watchdog looks once a second, and a busy machine runs it late.
  for (let waited = 0; !done(); waited += 50) {
    if (waited > 60_000) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

test("a process is its pid and its start time: another start time, or the process gone, is not it", async () => {
  const child = sleeper();
  const start = startTimeOf(child.pid);
  expect(start).toMatch(/^\d+$/);
  expect(holds(sameProcessTest(child.pid, start))).toBe(true);
  expect(holds(sameProcessTest(child.pid, `${Number(start) + 1}`))).toBe(false);
  expect(holds(sameProcessTest(child.pid, null))).toBe(false);
  // A group's number: its leader's, or no process's (a group outlives its leader while a member lives).
  expect(holds(sameGroupTest(child.pid, start))).toBe(true);
  expect(holds(sameGroupTest(child.pid, `${Number(start) + 1}`))).toBe(false);
  child.kill("SIGKILL");
  await exited(child);
  // Gone, or its pid already another process's (they wrap at 32,768 here): either way not it.
  const now = startTimeOf(child.pid);
  expect(now).not.toBe(start);
  expect(holds(sameProcessTest(child.pid, start))).toBe(false);
  // A group's number with no process is not another group's (its members would keep it).
  expect(holds(sameGroupTest(child.pid, start))).toBe(now === null);
});

test("once its test process is gone, a watchdog kills its server, and never a process that took the server's pid", async () => {
  for (const pidReused of [false, true]) {
    const tester = sleeper();
    const server = sleeper();
    const dir = mkdtempSync(path.join(tmpdir(), "sukti-watchdog-"));
    dirs.push(dir);
    // A pid taken by another process looks, to the watchdog, like a start time other than the one it kept.
    const serverStart = startTimeOf(server.pid);
    const kept = pidReused ? `${Number(serverStart) + 1}` : serverStart;
    const script = watchdogScript(
      { pid: tester.pid, start: startTimeOf(tester.pid) },
      { pid: server.pid, start: kept },
      dir,
    );
    const watchdog = spawn("sh", ["-c", script], { stdio: "ignore" });
    started.push(watchdog);
    // While the test process lives, the watchdog waits.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(existsSync(dir)).toBe(true);
    expect(server.exitCode === null && server.signalCode === null).toBe(true);
    tester.kill("SIGKILL");
    await exited(watchdog);
    expect(existsSync(dir), `pid reused: ${pidReused}`).toBe(false);
    if (pidReused) {
      expect(server.exitCode === null && server.signalCode === null, "the other process lives").toBe(true);
    } else {
      await until(() => server.signalCode !== null, "the server killed");
      expect(server.signalCode).toBe("SIGKILL");
    }
  }
});

/**
 * A test process that starts a server with the test support and is then
 * killed by a signal (no exit hook runs: a run ended by `timeout`, or by a
 * closed pipe): returns what it printed (the server's pids and directory).
 */
async function killedAfter(start: string): Promise<string> {
  const child = spawn(
    process.execPath,
    ["--import", "tsx", "--input-type=module", "-e", `${start}\nprocess.kill(process.pid, "SIGKILL");`],
    { cwd: path.resolve(import.meta.dirname, "..", ".."), stdio: ["ignore", "pipe", "pipe"] },
  );
  started.push(child);
  let output = "";
  child.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  await exited(child);
  expect(child.signalCode, output).toBe("SIGKILL");
  return output;
}

/** Whether a process of that pid is there (a zombie counts: it is reaped at once, its parent gone). */
const running = (pid: number) => startTimeOf(pid) !== null;

test.skipIf(!postgresAvailable())(
  "a PostgreSQL server whose test process is killed is stopped by its watchdog, its directory removed",
  async () => {
    const output = await killedAfter(`import { readFileSync } from "node:fs";
import pg from "pg";
import { startPostgres } from "#tests/support/postgres.ts";
const server = await startPostgres();
const client = new pg.Client({ connectionString: server.url("postgres") });
await client.connect();
const dir = (await client.query("SHOW data_directory")).rows[0].data_directory;
await client.end();
const pid = Number(readFileSync(dir + "/postmaster.pid", "utf8").split("\\n")[0]);
console.log(JSON.stringify({ pid, dir: dir.replace(/\\/data$/, "") }));`);
    const { pid, dir } = JSON.parse(output.trim().split("\n").at(-1)!) as { pid: number; dir: string };
    left.push({ pid, start: startTimeOf(pid) });
    dirs.push(dir);
    expect(dir).toContain("sukti-pg-");
    await until(() => !running(pid) && !existsSync(dir), "the server stopped and its directory removed");
  },
);

test.skipIf(!varnishAvailable())(
  "a Varnish whose test process is killed is stopped by its watchdog, its directory removed",
  async () => {
    const output = await killedAfter(`import { execFileSync } from "node:child_process";
import path from "node:path";
import { startVarnish } from "#tests/support/varnish.ts";
const varnish = await startVarnish({ backendPort: 9 });
const pids = execFileSync("pgrep", ["-f", "--", "-n " + varnish.workdir]).toString().trim().split("\\n").map(Number);
console.log(JSON.stringify({ pids, dir: path.dirname(varnish.workdir) }));`);
    const { pids, dir } = JSON.parse(output.trim().split("\n").at(-1)!) as { pids: number[]; dir: string };
    left.push(...pids.map((pid) => ({ pid, start: startTimeOf(pid) })));
    dirs.push(dir);
    expect(dir).toContain("sukti-varnish-");
    expect(pids.length).toBeGreaterThanOrEqual(1);
    await until(() => !pids.some(running) && !existsSync(dir), "Varnish stopped and its directory removed");
  },
);
