// The order test files start in: the longest first, so the two workers end
// together rather than one finishing a minute-long file alone at the end.
// Vitest orders by the durations it cached on earlier runs, and a fresh clone
// has none (it would order by file size): this list, measured with
// test-results/vitest.json, decides first; the rest follow Vitest's order.
import { BaseSequencer, type TestSpecification } from "vitest/node";

/**
 * Longest first (seconds alone, on this 2-core machine, in November 2026),
 * Chromium files between the others: three browsers at once on two cores
 * slowed each of them by half.
 */
const LONGEST = [
  "app/data/postgres/query-plans.test.ts", // 38: 100,000 posts into PostgreSQL
  "tests/integration/draft-invariance.test.ts", // 50: 3 seeds × 2 databases, ~175 responses 3 times each
  "tests/integration/wordpress-sync.test.ts", // 71 at load 16: a real WordPress, syncs into 2 databases
  "tests/integration/push-send.test.ts", // 99 at load 18: 4 servers (a cluster restarted, 2 PostgreSQL nodes)
  "tests/e2e/screenshots.test.ts", // 17
  "app/data/postgres/search-parity.test.ts", // 16
  "tests/e2e/frame.test.ts", // 21
  "tests/integration/slow-connections.test.ts", // 15: waits for a 10 s timeout
  "tests/integration/crawl.test.ts", // 13
  "tests/integration/limits.test.ts", // 9: search floods
  "tests/e2e/import-xss.test.ts", // 17
  "tests/integration/postgres-site.test.ts", // 14
  "app/data/postgres/contract.test.ts", // 13
  "tests/e2e/search.test.ts", // 10
  "tests/e2e/saved.test.ts", // 21 (a busy machine): two journeys, a context without JavaScript
  "tests/integration/collections.test.ts", // 18 (a busy machine): a server on each database
  "app/data/postgres/served-store.test.ts", // 13
  "cli/import-wal.test.ts", // 6: first in the unit thread
];

export class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (file: TestSpecification) => {
      const index = LONGEST.findIndex((name) => file.moduleId.endsWith(name));
      return index < 0 ? LONGEST.length : index;
    };
    return sorted
      .map((file, i) => ({ file, i }))
      .sort((a, b) => rank(a.file) - rank(b.file) || a.i - b.i)
      .map(({ file }) => file);
  }
}
