// Time limits in the suite are for hangs, not for speed: a test may be slow on
// a busy machine (load 20 on 2 cores makes a second's work ten) and must not
// fail because of it. Speed is measured in the benchmarks (`npm run bench…`)
// and asserted only by the timed files (vitest.config.ts, TIMED), which run
// alone. One number, so a slower machine changes one line.

/** How long a test or a hook may run before it counts as hung. */
export const HANG_MS = 300_000;

/**
 * How long a wait for something that takes a second on a quiet machine (a
 * server answering its health check, PostgreSQL accepting connections) goes
 * on before it counts as never coming.
 */
export const READY_MS = 120_000;
