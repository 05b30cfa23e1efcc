import type { Db } from "#app/data/db.server.ts";

/**
 * Application-defined SQL functions, registered on every connection before
 * migrations run (triggers and indexes may call them).
 */
export function registerSqlFunctions(_db: Db): void {}
