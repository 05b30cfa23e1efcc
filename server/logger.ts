const LEVELS = { silent: 0, error: 1, warn: 2, info: 3, debug: 4 } as const;
export type LogLevel = keyof typeof LEVELS;

export interface Logger {
  error(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  debug(msg: string, fields?: Record<string, unknown>): void;
}

/** One JSON object a line on stdout, filtered by level. */
export function createLogger(level: LogLevel): Logger {
  const threshold = LEVELS[level];
  const write =
    (name: Exclude<LogLevel, "silent">) =>
    (msg: string, fields: Record<string, unknown> = {}) => {
      if (LEVELS[name] > threshold) return;
      process.stdout.write(
        `${JSON.stringify({ time: new Date().toISOString(), level: name, msg, ...fields })}\n`,
      );
    };
  return { error: write("error"), warn: write("warn"), info: write("info"), debug: write("debug") };
}
