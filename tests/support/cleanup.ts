// What a test run undoes when it ends without a server's stop() (a test that
// timed out while its server started, a hook that threw): servers killed,
// their directories removed. One exit hook for every kind of test server
// (server.ts, postgres.ts, varnish.ts, wordpress.ts). A process ended by a
// signal runs no exit hook: server.ts's watchdog covers the sukti servers.

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
