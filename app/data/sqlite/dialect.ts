// SQLite's side of the reads written once (../sql/dialect.ts): numbered
// parameters (bound by number: ./reads.server.ts), lists bound as one JSON
// text read by json_each, and CROSS JOIN to keep such a list the outer loop
// (SQLite's planner takes a CROSS JOIN's order as written).
import type { Dialect } from "#app/data/sql/dialect.ts";

export const SQLITE: Dialect = {
  param: (n) => `?${n}`,
  integerTable: (n, alias) => ({ from: `json_each(?${n}) AS ${alias}`, value: `${alias}.value` }),
  integerList: (values) => JSON.stringify(values),
  holdsInteger: () => true,
  entryTable: (n, alias) => ({
    from: `json_each(?${n}) AS ${alias}`,
    language: `${alias}.value ->> 0`,
    idNum: `${alias}.value ->> 1`,
    order: `${alias}.key`,
  }),
  entryArgs: (entries) => [JSON.stringify(entries.map(({ language, idNum }) => [language, idNum]))],
  outerJoin: "CROSS JOIN",
  jsonObject: (...keysAndValues) => `json_object(${keysAndValues.join(", ")})`,
  // A comparison is 0 or 1.
  json: <T>(value: unknown) => JSON.parse(value as string) as T,
  integerArray: (select, column) => `(SELECT json_group_array(${column}) FROM (${select}))`,
  integers: (value) => JSON.parse(value as string) as number[],
  holdsText: () => true,
  limit: (n) => n,
  offset: (n) => n,
};
