import { writeSync } from "node:fs";

const LEVELS = { silent: 0, error: 1, warn: 2, info: 3, debug: 4 } as const;
export type LogLevel = keyof typeof LEVELS;

export interface Logger {
  error(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  debug(msg: string, fields?: Record<string, unknown>): void;
}

/** Lines are written together once per event-loop turn, or sooner past this many bytes. */
const FLUSH_AT = 64 * 1024;

/**
 * One JSON object a line on stdout, filtered by level. Lines are gathered and
 * written once per event-loop turn (a write per request line cost a system
 * call each under load); errors go out at once, after the lines before them,
 * and whatever is pending is written when the process exits.
 */
export function createLogger(level: LogLevel): Logger {
  const threshold = LEVELS[level];
  let pending = "";
  let scheduled = false;
  const flush = () => {
    scheduled = false;
    if (pending === "") return;
    const text = pending;
    pending = "";
    process.stdout.write(text);
  };
  process.once("exit", () => {
    if (pending !== "") writeSync(1, pending);
    pending = "";
  });
  const write =
    (name: Exclude<LogLevel, "silent">) =>
    (msg: string, fields: Record<string, unknown> = {}) => {
      if (LEVELS[name] > threshold) return;
      pending += `${JSON.stringify({ time: new Date().toISOString(), level: name, msg, ...fields })}\n`;
      if (name === "error" || pending.length >= FLUSH_AT) flush();
      else if (!scheduled) {
        scheduled = true;
        setImmediate(flush);
      }
    };
  return { error: write("error"), warn: write("warn"), info: write("info"), debug: write("debug") };
}

/** The one line each answered request leaves in the log (both request paths: fast-pages.ts, app.ts). */
export function logRequest(
  logger: Logger,
  request: { method: string | undefined; path: string; status: number; started: number; requestId: string },
) {
  logger.info("request", {
    method: request.method,
    path: request.path.slice(0, 2000),
    status: request.status,
    durationMs: Math.round((performance.now() - request.started) * 10) / 10,
    requestId: request.requestId,
  });
}
