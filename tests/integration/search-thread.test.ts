// Searches render in a thread of their own (server/search-worker.ts,
// docs/decisions/047-searches-in-their-own-thread.md): the page it sends is
// the one the event loop renders, on SQLite and on PostgreSQL, and the thread
// runs at a lower priority (Linux). The floods themselves: limits.test.ts.
import { readdirSync, readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { postgresAvailable, sharedPostgres, type TestPostgres } from "#tests/support/postgres.ts";
import { type RunningServer, startServer } from "#tests/support/server.ts";

/** English, romanised, Devanagari, no result, a later page, broken percent-encoding, an attack string. */
const SEARCHES = [
  "/search/love",
  "/search/prem",
  `/search/${encodeURIComponent("प्रेम सत्य")}`,
  "/search/zzzzqqq",
  "/search/love?page=2",
  "/search/love?page=999",
  "/search/%E0%A4",
  `/search/${encodeURIComponent("' OR 1=1 --")}`,
];

/** What differs between two servers of the same content: their port, and the request id an error page shows. */
const normalize = (body: string, origin: string) =>
  body
    .replaceAll(origin, "ORIGIN")
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, "REQUEST-ID");

async function page(server: RunningServer, path: string) {
  const response = await fetch(`${server.url}${path}`);
  return {
    status: response.status,
    type: response.headers.get("content-type"),
    // Scripts holding the origin differ by port, so their hashes do: counted, not compared.
    csp: response.headers.get("content-security-policy")?.replace(/'sha256-[^']+'/g, "'sha256'"),
    body: normalize(await response.text(), server.url),
  };
}

/** The nice value of each of the process's threads (Linux). */
function threadNiceness(pid: number): number[] {
  return readdirSync(`/proc/${pid}/task`).map((tid) => {
    const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, "utf8");
    // Fields after the command's closing parenthesis: state is field 3, nice field 19.
    return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[16]);
  });
}

async function expectSamePages(threaded: RunningServer, inline: RunningServer) {
  for (const path of SEARCHES) {
    const [a, b] = await Promise.all([page(threaded, path), page(inline, path)]);
    expect({ path, ...a }).toEqual({ path, ...b });
  }
  // A search asked again is answered from the search cache, as before.
  const again = await fetch(`${threaded.url}/search/love`);
  expect(again.headers.get("x-cache")).toBe("HIT");
}

describe("SQLite", () => {
  let threaded: RunningServer;
  let inline: RunningServer;
  beforeAll(async () => {
    [threaded, inline] = await Promise.all([startServer(), startServer({ env: { SEARCH_LIMITS: "off" } })]);
  });
  afterAll(async () => {
    await Promise.all([threaded?.stop(), inline?.stop()]);
  });

  test("a search page from the search thread is the page the event loop renders", async () => {
    await expectSamePages(threaded, inline);
  });

  test.runIf(process.platform === "linux")(
    "the search thread runs at nice 10; without the limits there is none",
    async () => {
      expect((await fetch(`${threaded.url}/search/truth`)).status).toBe(200);
      expect((await fetch(`${inline.url}/search/truth`)).status).toBe(200);
      expect(threadNiceness(threaded.child.pid!).filter((nice) => nice === 10)).toHaveLength(1);
      expect(threadNiceness(inline.child.pid!).filter((nice) => nice === 10)).toHaveLength(0);
    },
  );
});

describe.skipIf(!postgresAvailable())("PostgreSQL", () => {
  let postgres: TestPostgres;
  let threaded: RunningServer;
  let inline: RunningServer;
  beforeAll(async () => {
    postgres = await sharedPostgres();
    const url = await postgres.createDatabase("search_thread");
    // The first seeds the database; the second opens it seeded.
    threaded = await startServer({ env: { DATABASE_URL: url } });
    inline = await startServer({ env: { DATABASE_URL: url, SEARCH_LIMITS: "off" } });
  });
  afterAll(async () => {
    await Promise.all([threaded?.stop(), inline?.stop()]);
    await postgres?.stop();
  });

  test("a search page from the search thread is the page the event loop renders", async () => {
    await expectSamePages(threaded, inline);
  });
});
