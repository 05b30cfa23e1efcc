// PostgreSQL's side of the reads written once (../sql/dialect.ts): $n
// parameters, lists bound as arrays and read by unnest (WITH ORDINALITY where
// their order matters), json_build_object (the driver parses json), and the
// values PostgreSQL would refuse where SQLite simply finds nothing.
import type { Dialect } from "#app/data/sql/dialect.ts";

/** LIMIT and OFFSET as SQLite reads them: a negative limit is no limit, a negative offset none. */
function limitOf(limit: number): number | null {
  return limit < 0 ? null : Math.trunc(limit);
}
function offsetOf(offset: number): number {
  return Math.max(0, Math.trunc(offset));
}

export const POSTGRES: Dialect = {
  param: (n) => `$${n}`,
  integerTable: (n, alias, column) => ({
    from: `unnest($${n}::bigint[]) AS ${alias} (${column})`,
    value: `${alias}.${column}`,
  }),
  integerList: (values) => [...values],
  holdsInteger: (n) => Number.isSafeInteger(n),
  entryTable: (n, alias) => ({
    from: `unnest($${n}::text[], $${n + 1}::bigint[]) WITH ORDINALITY AS ${alias} (language, id_num, at)`,
    language: `${alias}.language`,
    idNum: `${alias}.id_num`,
    order: `${alias}.at`,
  }),
  entryArgs: (entries) => [entries.map((entry) => entry.language), entries.map((entry) => entry.idNum)],
  outerJoin: "JOIN",
  jsonObject: (...keysAndValues) => `json_build_object(${keysAndValues.join(", ")})`,
  json: <T>(value: unknown) => value as T,
  integerArray: (select) => `ARRAY(${select})`,
  integers: (value) => (value as (number | string)[]).map(Number),
  // A key no stored row can have: PostgreSQL text holds no NUL (SQLite would
  // simply find nothing, and so does this store, rather than fail).
  holdsText: (text) => !text.includes("\u0000"),
  limit: limitOf,
  offset: offsetOf,
};
