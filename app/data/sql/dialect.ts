// What the two databases say differently in a read (./read-queries.ts), and
// how a value is bound to it. Everything else in a read is the same text on
// SQLite and PostgreSQL: aliases are quoted on both ("idNum" keeps its case on
// PostgreSQL and reads the same on SQLite). One object per database:
// app/data/sqlite/dialect.ts, app/data/postgres/dialect.ts.
import type { Language } from "#app/content/languages.ts";

/** A FROM item and how to name its columns. */
export interface ListTable {
  from: string;
  /** The list's value (an integer list's one column). */
  value: string;
}

/** A list of (language, idNum) entries as a FROM item, read in the list's order. */
export interface EntryTable {
  from: string;
  language: string;
  idNum: string;
  /** The expression to ORDER BY for the list's order. */
  order: string;
}

export interface Dialect {
  /** Parameter n, counted from 1 (SQLite `?1`, PostgreSQL `$1`). */
  param(n: number): string;
  /** A list of integers bound as parameter n, as the FROM item `alias` (its one column named `column` where names are given). */
  integerTable(n: number, alias: string, column: string): ListTable;
  /** The value bound for such a list. */
  integerList(values: readonly number[]): unknown;
  /** Whether an integer column can be compared with `n` (PostgreSQL's bigint takes no 1.5): one it cannot matches nothing. */
  holdsInteger(n: number): boolean;
  /** (language, idNum) entries bound from parameter n on ({@link entryArgs}: one or two parameters). */
  entryTable(n: number, alias: string): EntryTable;
  entryArgs(entries: readonly { language: Language; idNum: number }[]): unknown[];
  /** A join that keeps the table before it as the outer loop (SQLite's CROSS JOIN; PostgreSQL's planner orders joins itself). */
  outerJoin: "CROSS JOIN" | "JOIN";
  /** A JSON object of key, value, key, value… */
  jsonObject(...keysAndValues: string[]): string;
  /** A jsonObject column as the driver returns it, parsed. */
  json<T>(value: unknown): T;
  /**
   * The integers a one-column subquery selects (`column`) as one value of the row, in no
   * order (SQLite json_group_array, PostgreSQL ARRAY): one row for what would be a query each.
   */
  integerArray(select: string, column: string): string;
  /** An integerArray column as the driver returns it. */
  integers(value: unknown): number[];
  /** Whether a text column can hold `text` (PostgreSQL's text holds no NUL): a key it cannot hold finds nothing. */
  holdsText(text: string): boolean;
  /** LIMIT and OFFSET as bound, read the way SQLite reads them (a negative limit: none; a negative offset: 0). */
  limit(n: number): number | null;
  offset(n: number): number;
}
