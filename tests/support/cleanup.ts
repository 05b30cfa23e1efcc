// What a test run undoes when it ends without a server's stop() (a test that
// timed out while its server started, a hook that threw): servers killed,
// their directories removed. One exit hook for every kind of test server
// (server.ts, postgres.ts, varnish.ts, wordpress.ts). A process ended by a
// signal runs no exit hook: a watchdog (watchOver) covers the sukti, PostgreSQL
// and Varnish servers, and wordpress.ts has its own.
//
// A process is named by its pid and its start time together: this machine's
// pids wrap at 32,768, and a test run starts thousands of processes (each
// watchdog a `sleep` a second), so a pid a watchdog or a stop() kept may be
// another test's server by the time it is used.
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";

const pending: (() => void)[] = [];
let installed = false;

/**
 * Runs `undo` when this process exits, unless the returned function is called
 * first (stop() did the work). The last registered runs first: a server is
 * killed before its directory, registered before it, is removed.
 */
export function atExit(undo: () => void): () => void {
  if (!installed) {
    installed = true;
    process.once("exit", () => {
      for (const step of pending.splice(0).reverse()) {
        try {
          step();
        } catch {
          // Already gone (a process that exited, a directory removed): the next one still runs.
        }
      }
    });
  }
  pending.push(undo);
  return () => {
    const at = pending.indexOf(undo);
    if (at >= 0) pending.splice(at, 1);
  };
}

/** When a process started (/proc/PID/stat's 22nd field, ticks since boot); null once it is gone. */
export function startTimeOf(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // The fields after the command's closing parenthesis: state is the 3rd field, start time the 22nd.
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19] ?? null;
  } catch {
    return null;
  }
}

/**
 * The shell function sameProcessTest and sameGroupTest call (POSIX sh, builtins
 * only: a watchdog asks each second, and a forked `sed` would add to the pids
 * it guards against).
 */
export const SAME_PROCESS_SH = `same_process() {
  want=$2; line=""
  { read -r line < /proc/$1/stat; } 2>/dev/null || return 1
  line=\${line##*) }
  set -- $line
  [ "\${20}" = "$want" ]
}`;

/** A shell test (after SAME_PROCESS_SH): pid is still the process that started at `start` (false once it is gone, or its pid reused). */
export function sameProcessTest(pid: number | string, start: string | null): string {
  return start === null ? "false" : `same_process ${pid} ${start}`;
}

/**
 * A shell test (after SAME_PROCESS_SH): the number `group` still names the process group it named
 * when its leader started at `start`, or a group whose leader is gone (its
 * number is not reused while a member lives): false once the number is
 * another process's.
 */
export function sameGroupTest(group: number | string, start: string | null): string {
  return `{ [ ! -e /proc/${group} ] || ${sameProcessTest(group, start)}; }`;
}

/** Whether `group` still names the group whose leader started at `start` (sameGroupTest, in this process). */
export function isSameGroup(group: number, start: string | null): boolean {
  const now = startTimeOf(group);
  return now === null || now === start;
}

/** A process by its pid and start time. */
export interface ProcessName {
  pid: number;
  start: string | null;
}

/**
 * The watchdog's shell script: waits while `tester` lives and `dir` is
 * there; then, if `server` is still that process, sends it `signal` and
 * waits (up to 10 s) for it to end; then removes `dir`. A server stopped
 * by its test is gone by then, and a pid another process took is left alone.
 */
export function watchdogScript(
  tester: ProcessName,
  server: ProcessName,
  dir: string,
  signal = "KILL",
): string {
  const quoted = `'${dir.replaceAll("'", "'\\''")}'`;
  const alive = sameProcessTest(server.pid, server.start);
  return [
    SAME_PROCESS_SH,
    `while ${sameProcessTest(tester.pid, tester.start)} && [ -d ${quoted} ]; do sleep 1; done`,
    `if ${alive}; then kill -${signal} ${server.pid} 2>/dev/null; n=0; while ${alive} && [ $n -lt 100 ]; do sleep 0.1; n=$((n+1)); done; fi`,
    `rm -rf ${quoted}`,
  ].join("\n");
}

/**
 * A shell that outlives this process: once it is gone without an exit hook
 * (a Vitest fork or the run itself ended by a signal), it stops the server
 * (`signal`: KILL for a sukti server; PostgreSQL and Varnish stop their own
 * children on QUIT and TERM) and removes its directory. It ends by itself
 * when stop() removes the directory. Each process is checked by its start
 * time too: a server that exited without stop() left its directory, and its
 * pid may be another test's server by the time this process is gone.
 */
export function watchOver(pid: number, dir: string, signal = "KILL"): void {
  const script = watchdogScript(
    { pid: process.pid, start: startTimeOf(process.pid) },
    { pid, start: startTimeOf(pid) },
    dir,
    signal,
  );
  spawn("sh", ["-c", script], { detached: true, stdio: "ignore" }).unref();
}
