// What a test run undoes when it ends without a server's stop() (a test that
// timed out while its server started, a hook that threw): servers killed,
// their directories removed. One exit hook for every kind of test server
// (server.ts, postgres.ts, varnish.ts, wordpress.ts). A process ended by a
// signal runs no exit hook: server.ts's watchdog covers the sukti servers.
//
// A process is named by its pid and its start time together: this machine's
// pids wrap at 32,768, and a test run starts thousands of processes (each
// watchdog a `sleep` a second), so a pid a watchdog or a stop() kept may be
// another test's server by the time it is used.
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
