// The stats counts on PostgreSQL (server/stats-store.ts, decision 056): two
// nodes add to the same rows at once and their counts add up; a roll-up run
// by two nodes at once counts each day once; and no stats write changes the
// content version the page caches key on.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createPool } from "#app/data/postgres/pool.server.ts";
import { postgresAvailable, sharedPostgres, type TestPostgres } from "#tests/support/postgres.ts";
import { openStatsStore, type StatRow, type StatsStore } from "../../../server/stats-store.ts";

const available = postgresAvailable();

function row(day: string, kind: string, item: string, count: number, results: number | null = null): StatRow {
  return { day, bot: 0, kind, language: kind === "post" ? "hindi" : "", item, count, results };
}

describe.skipIf(!available)("stats counts on PostgreSQL", () => {
  let server: TestPostgres;
  let url: string;
  let one: StatsStore;
  let two: StatsStore;

  beforeAll(async () => {
    server = await sharedPostgres();
    url = await server.createDatabase("stats");
    const stores = await Promise.all([openStatsStore(url), openStatsStore(url)]);
    if (!stores[0] || !stores[1]) throw new Error("no store");
    [one, two] = stores as [StatsStore, StatsStore];
  });

  afterAll(async () => {
    await one?.close();
    await two?.close();
    await server?.stop();
  });

  test("two nodes add up; the content version stays; old days roll up once", async () => {
    const pool = createPool(url, { max: 1 });
    const version = async () =>
      (await pool.query<{ version: number }>("SELECT version FROM content_version WHERE id = 1")).rows[0]
        ?.version;
    try {
      const before = await version();
      const batch = (n: number) => [
        row("2025-09-30", "post", "होइहि-सोइ", n),
        row("2025-09-30", "search", "prem", 1, 0),
        row("2026-11-26", "search", "shanti", n, 3),
      ];
      await Promise.all(Array.from({ length: 10 }, (_, i) => (i % 2 === 0 ? one : two).add(batch(i + 1))));
      const rows = await one.read("2000-01-01");
      const count = (day: string, item: string) => rows.find((r) => r.day === day && r.item === item)?.count;
      expect(count("2025-09-30", "होइहि-सोइ")).toBe(55);
      expect(count("2025-09-30", "prem")).toBe(10);
      expect(rows.find((r) => r.item === "shanti")?.results).toBe(3);
      expect(await version()).toBe(before);

      const rolled = await Promise.all([one.rollUp("2025-10-01"), two.rollUp("2025-10-01")]);
      expect(rolled.sort()).toEqual([0, 2]);
      const kept = await two.read("2000-01-01", { months: true });
      expect(kept.map((r) => [r.period, r.day, r.kind, r.item, r.count]).sort()).toEqual(
        [
          ["day", "2026-11-26", "search", "shanti", 55],
          ["month", "2025-09-01", "post", "होइहि-सोइ", 55],
          ["month", "2025-09-01", "search", "", 10],
        ].sort(),
      );
      expect(await version()).toBe(before);
    } finally {
      await pool.end();
    }
  });
});
