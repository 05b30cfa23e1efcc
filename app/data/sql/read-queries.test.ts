// The reads written once bind the same values on both databases: each query
// names its parameters 1…n, none skipped, the same n in both dialects (the
// store binds one argument list for both). A collection's entries are one
// JSON parameter on SQLite and two arrays on PostgreSQL (Dialect.entryArgs).
import { expect, test } from "vitest";
import { POSTGRES } from "#app/data/postgres/dialect.ts";
import { readQueries } from "#app/data/sql/read-queries.ts";
import { SQLITE } from "#app/data/sqlite/dialect.ts";

/** The parameter numbers a query names, in order, each once. */
function parameters(sql: string, mark: "?" | "$"): number[] {
  const found = [...sql.matchAll(mark === "?" ? /\?(\d+)/g : /\$(\d+)/g)].map((match) => Number(match[1]));
  return [...new Set(found)].sort((a, b) => a - b);
}

test("each read names parameters 1…n, the same n on SQLite and PostgreSQL", () => {
  const sqlite = readQueries(SQLITE);
  const postgres = readQueries(POSTGRES);
  expect(Object.keys(sqlite)).toEqual(Object.keys(postgres));
  for (const name of Object.keys(sqlite) as (keyof typeof sqlite)[]) {
    const onSqlite = parameters(sqlite[name], "?");
    const onPostgres = parameters(postgres[name], "$");
    expect(onSqlite, name).toEqual(onSqlite.map((_, i) => i + 1));
    expect(onPostgres, name).toEqual(onPostgres.map((_, i) => i + 1));
    expect(sqlite[name], name).not.toMatch(/\$\d/);
    expect(postgres[name], name).not.toMatch(/\?\d?/);
    if (name === "collection") {
      expect([onSqlite.length, onPostgres.length]).toEqual([
        SQLITE.entryArgs([{ language: "hindi", idNum: 1 }]).length,
        POSTGRES.entryArgs([{ language: "hindi", idNum: 1 }]).length,
      ]);
    } else {
      expect(onSqlite, name).toEqual(onPostgres);
    }
  }
});
