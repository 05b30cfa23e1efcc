import pg from "pg";

// bigint (int8) and bigint[] arrive as JavaScript numbers, as better-sqlite3
// gives them: every id, idNum, time and count here is below 2^53 (a parked
// idNum is not, and is only ever compared with real ones).
const INT8 = 20;
const INT8_ARRAY = 1016;
const parseInt8Array = pg.types.getTypeParser(INT8_ARRAY as Parameters<typeof pg.types.getTypeParser>[0]);

const types: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: "text" | "binary") => {
    if (oid === INT8) return (value: string) => Number(value);
    if (oid === INT8_ARRAY) {
      return (value: string) =>
        (parseInt8Array(value) as (string | null)[]).map((v) => (v === null ? null : Number(v)));
    }
    return pg.types.getTypeParser(oid, format);
  }) as pg.CustomTypesConfig["getTypeParser"],
};

export interface PoolOptions {
  max?: number;
  /** A host that does not answer fails a connection attempt after this long (ms). */
  connectionTimeoutMillis?: number;
  /** The server cancels a statement running longer than this (ms); none by default. */
  statementTimeoutMillis?: number;
}

/** A pool for DATABASE_URL=postgres://…, numbers parsed as numbers. */
export function createPool(url: string, options: PoolOptions = {}): pg.Pool {
  const pool = new pg.Pool({
    connectionString: url,
    max: options.max ?? 10,
    connectionTimeoutMillis: options.connectionTimeoutMillis ?? 5000,
    idleTimeoutMillis: 30_000,
    // A peer that vanishes without closing the connection (a host or a
    // network gone) is eventually noticed by TCP keepalive, rather than
    // leaving the connection open forever. Requests do not wait for it: the
    // served store's ping() has a timeout of its own.
    keepAlive: true,
    keepAliveInitialDelayMillis: 10_000,
    application_name: "sukti",
    ...(options.statementTimeoutMillis ? { statement_timeout: options.statementTimeoutMillis } : {}),
    types,
  });
  // An idle client whose connection dies must not crash the process: the next query fails instead.
  pool.on("error", () => {
    // Listening is enough: the pool has already discarded the broken client.
  });
  // Nor may a checked-out one (the pool listens only while a client is idle):
  // pg emits "error" on a client whose connection ends, even when its query
  // is already rejected with that error, and unheard that event is a crash
  // with a raw stack (the server stopped mid-import). Every query of that
  // client fails from then on, an ordinary rejected promise for its caller.
  pool.on("connect", (client) => {
    client.on("error", () => {
      // Heard: the caller sees the error through its query.
    });
  });
  return pool;
}

/** A single client with the same number parsing (LISTEN needs one of its own). */
export function createClient(url: string): pg.Client {
  return new pg.Client({
    connectionString: url,
    types,
    connectionTimeoutMillis: 5000,
    keepAlive: true,
    keepAliveInitialDelayMillis: 10_000,
    application_name: "sukti",
  });
}

/** Ends the pool; gives up waiting for its connections after `timeoutMs` (never hangs). */
export async function endPool(pool: pg.Pool, timeoutMs = 3000): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, timeoutMs);
    timer.unref();
  });
  await Promise.race([
    pool.end().catch(() => {
      // The pool is being given up on: an error ending it changes nothing.
    }),
    timeout,
  ]);
  clearTimeout(timer);
}
