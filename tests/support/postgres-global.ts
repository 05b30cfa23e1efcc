// Vitest globalSetup: one PostgreSQL server for the whole run (initdb once,
// not once per test file); files take databases of it through
// sharedPostgres() (./postgres.ts). Without PostgreSQL installed, nothing.
import { startSharedPostgres } from "#tests/support/postgres.ts";

export default async function setup(): Promise<() => Promise<void>> {
  return startSharedPostgres();
}
