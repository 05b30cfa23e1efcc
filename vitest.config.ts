import { defineConfig } from "vitest/config";
import { HANG_MS } from "./tests/support/limits.ts";
import { LongestFirst } from "./tests/support/sequencer.ts";

/**
 * Integration files that assert on time (draining under load, a cache that must see new
 * content within a second): they run alone, after the rest, so a neighbour's load cannot
 * fail them. The search floods (limits.test.ts) and the cluster's workers (cluster.test.ts)
 * assert which answers come back, never how fast: they run with the rest.
 */
const TIMED = ["tests/integration/server.test.ts", "tests/integration/postgres-nodes.test.ts"];

/** Unit files that need PostgreSQL (skipped without it). */
const POSTGRES_UNIT = "app/data/postgres/**/*.test.ts";

export default defineConfig({
  test: {
    // One PostgreSQL server for the run: test files take databases of it. One demo database
    // for the run: test servers start on copies of it.
    globalSetup: ["tests/support/postgres-global.ts", "tests/support/demo-database-global.ts"],
    // Each fetch on a fresh connection: no keep-alive race on a busy machine (the file says why).
    setupFiles: ["tests/support/fresh-connections.ts"],
    // The longest files first, on a fresh clone too (tests/support/sequencer.ts).
    sequence: { sequencer: LongestFirst },
    // Three test files at a time on this 2-core machine: with two, a core sat idle a third of the
    // run (files waiting on a timeout, a server, PostgreSQL); 3 min 38 s against 4 min 06 s.
    // The unit thread (below) runs beside these three.
    maxWorkers: 3,
    minWorkers: 1,
    projects: [
      {
        // Files that share nothing between them: one after another in a single worker thread,
        // beside the forks below, their modules loaded once (a fork and a module graph per
        // file cost more CPU than most of these files' tests).
        extends: true,
        test: {
          name: "unit",
          include: ["app/**/*.test.ts", "cli/**/*.test.ts", "server/**/*.test.ts"],
          // Limits catch hangs only (tests/support/limits.ts): on a busy machine (load 20 on
          // 2 cores) a file that takes 5 s alone takes a minute.
          testTimeout: HANG_MS,
          hookTimeout: HANG_MS,
          exclude: [POSTGRES_UNIT],
          sequence: { groupOrder: 0 },
          pool: "threads",
          poolOptions: { threads: { singleThread: true, isolate: false } },
        },
      },
      {
        // The unit files on PostgreSQL: a minute of work on its server, in forks with the rest.
        extends: true,
        test: {
          name: "unit-postgres",
          include: [POSTGRES_UNIT],
          testTimeout: HANG_MS,
          hookTimeout: HANG_MS,
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          name: "integration",
          include: ["tests/integration/**/*.test.ts"],
          exclude: TIMED,
          testTimeout: HANG_MS,
          hookTimeout: HANG_MS,
          sequence: { groupOrder: 0 },
        },
      },
      {
        // Chromium journeys, scheduled with the files above (maxWorkers files at a time in all).
        extends: true,
        test: {
          name: "e2e",
          include: ["tests/e2e/**/*.test.ts"],
          testTimeout: HANG_MS,
          hookTimeout: HANG_MS,
          // A page hydrates after its load event: on a busy machine that can take longer
          // than expect.poll's default of one second (seen failing under load).
          expect: { poll: { timeout: 30_000 } },
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          name: "timed",
          include: TIMED,
          testTimeout: HANG_MS,
          hookTimeout: HANG_MS,
          sequence: { groupOrder: 1 },
          poolOptions: { forks: { singleFork: true } },
        },
      },
    ],
  },
});
