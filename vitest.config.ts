import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    // One server or Chromium at a time: this runs on 2 cores.
    fileParallelism: false,
    projects: [
      {
        extends: true,
        test: { name: "unit", include: ["app/**/*.test.ts", "cli/**/*.test.ts", "server/**/*.test.ts"] },
      },
      {
        extends: true,
        test: {
          name: "integration",
          include: ["tests/integration/**/*.test.ts"],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          name: "e2e",
          include: ["tests/e2e/**/*.test.ts"],
          testTimeout: 60_000,
          hookTimeout: 90_000,
        },
      },
    ],
  },
});
