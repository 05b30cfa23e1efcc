// Placeholder until the PostgreSQL served store lands (issue 12): the lead's
// helper replaces this file.
import type { ServedStore } from "#app/data/store.ts";

export async function openPostgresStore(_databaseUrl: string): Promise<ServedStore> {
  throw new Error("PostgreSQL is not wired in yet");
}
