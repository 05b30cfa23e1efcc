import { defineConfig } from "vitest/config";

/**
 * Integration files that assert on time (slow clients, floods, a cache that
 * must see new content within a second, draining under load): they run alone,
 * after the rest, so a neighbour's load cannot fail them.
 */
const TIMED = [
  "tests/integration/limits.test.ts",
  "tests/integration/server.test.ts",
  "tests/integration/cluster.test.ts",
  "tests/integration/postgres-nodes.test.ts",
];

export default defineConfig({
  test: {
    // This machine has 2 cores: two test files at a time (each may run a server or a database).
    maxWorkers: 2,
    minWorkers: 1,
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: ["app/**/*.test.ts", "cli/**/*.test.ts", "server/**/*.test.ts"],
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          name: "integration",
          include: ["tests/integration/**/*.test.ts"],
          exclude: TIMED,
          testTimeout: 30_000,
          hookTimeout: 60_000,
          sequence: { groupOrder: 0 },
        },
      },
      {
        // One Chromium at a time, after the files above.
        extends: true,
        test: {
          name: "e2e",
          include: ["tests/e2e/**/*.test.ts"],
          testTimeout: 60_000,
          hookTimeout: 90_000,
          sequence: { groupOrder: 1 },
          poolOptions: { forks: { singleFork: true } },
        },
      },
      {
        extends: true,
        test: {
          name: "timed",
          include: TIMED,
          testTimeout: 30_000,
          hookTimeout: 60_000,
          sequence: { groupOrder: 2 },
          poolOptions: { forks: { singleFork: true } },
        },
      },
    ],
  },
});
