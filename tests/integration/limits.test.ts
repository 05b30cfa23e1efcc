// Issue 11 §2 and §3: no one client takes the site down, with idle or slow
// connections, or with a flood of searches.
import { execFileSync } from "node:child_process";
import http from "node:http";
import { connect, type Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type RunningServer, startServer } from "#tests/support/server.ts";

/** GET from a given loopback source address (each one a different client), on a new connection. */
function getFrom(
  url: string,
  localAddress = "127.0.0.1",
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const request = http.get(url, { localAddress, agent: false }, (response) => {
      let body = "";
      response.setEncoding("utf8");
      response.on("data", (chunk) => (body += chunk));
      response.on("end", () =>
        resolve({ status: response.statusCode ?? 0, headers: response.headers, body }),
      );
    });
    request.on("error", reject);
  });
}

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/**
 * Searches from each client address over `perClient` keep-alive connections,
 * each asking again as soon as it is answered (as a load generator does), for
 * `ms`; returns every answer's status and the first answer of each status.
 */
async function flood(base: string, clients: string[], perClient: number, ms: number) {
  const counts = new Map<number, number>();
  const first = new Map<number, Answer>();
  const until = performance.now() + ms;
  // Every request a search not asked before: a repeated one is a cache hit, which no limit needs to hold.
  let next = 0;
  const one = async (agent: http.Agent, localAddress: string) => {
    for (let i = next++; performance.now() < until; i = next++) {
      const answer = await new Promise<Answer>((resolve, reject) => {
        http
          .get(searchUrl(base, i), { agent, localAddress }, (response) => {
            let body = "";
            response.setEncoding("utf8");
            response.on("data", (chunk) => (body += chunk));
            response.on("end", () =>
              resolve({ status: response.statusCode ?? 0, headers: response.headers, body }),
            );
          })
          .on("error", reject);
      });
      counts.set(answer.status, (counts.get(answer.status) ?? 0) + 1);
      if (!first.has(answer.status)) first.set(answer.status, answer);
    }
  };
  await Promise.all(
    clients.map(async (address) => {
      const agent = new http.Agent({ keepAlive: true, maxSockets: perClient });
      await Promise.all(Array.from({ length: perClient }, () => one(agent, address)));
      agent.destroy();
    }),
  );
  return { counts, first };
}

const WORDS = ["love", "prem", "सत्य", "bhakti", "truth", "man", "मन", "faith", "sant", "peace"];
/** The i-th of 10,000 different searches of four words each. */
const searchPath = (i: number) =>
  `/search/${encodeURIComponent(
    [0, 1, 2, 3].map((digit) => WORDS[Math.floor(i / 10 ** digit) % WORDS.length]).join(" "),
  )}`;
const searchUrl = (base: string, i: number) => `${base}${searchPath(i)}`;

describe("search limits", () => {
  let server: RunningServer;

  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(async () => {
    await server?.stop();
  });

  test("one client's flood of searches: beyond its share, 429 with Retry-After; other pages still 200", async () => {
    const running = flood(server.url, ["127.0.0.1"], 32, 2000);
    await new Promise((resolve) => setTimeout(resolve, 500));
    const home = await getFrom(`${server.url}/`, "127.0.0.200");
    const { counts, first } = await running;
    expect(home.status).toBe(200);
    expect([...counts.keys()].sort()).toEqual([200, 429]);
    expect(first.get(429)!.headers["retry-after"]).toMatch(/^\d+$/);
    expect(first.get(429)!.body).toContain("wait for them");
  });

  test("many clients at once: beyond the searches a process runs and queues, 503 with Retry-After", async () => {
    // 60 clients (127.0.0.2 …), each within its share of 4 searches at a time.
    const clients = Array.from({ length: 60 }, (_, c) => `127.0.0.${2 + c}`);
    const { counts, first } = await flood(server.url, clients, 4, 2000);
    expect([...counts.keys()].sort()).toEqual([200, 503]);
    expect(first.get(503)!.headers["retry-after"]).toMatch(/^\d+$/);
    expect(first.get(503)!.headers["cache-control"]).toBe("no-store");
    expect(first.get(503)!.body).toContain("Many people are searching");
  });

  test("a client that waits for each answer is never refused", async () => {
    for (let i = 0; i < 60; i++) expect((await getFrom(searchUrl(server.url, i))).status).toBe(200);
  });
});

test("SEARCH_LIMITS=off lifts both limits", async () => {
  const server = await startServer({ env: { SEARCH_LIMITS: "off" } });
  try {
    const { counts } = await flood(server.url, ["127.0.0.1"], 32, 1500);
    expect([...counts.keys()]).toEqual([200]);
  } finally {
    await server.stop();
  }
});

describe("slow and idle connections", () => {
  let server: RunningServer;
  let port: number;
  const sockets: Socket[] = [];

  beforeAll(async () => {
    // This process holds 5,000 sockets of its own: raise its open-file limit where allowed.
    try {
      execFileSync("prlimit", ["--pid", String(process.pid), "--nofile=16384:16384"]);
    } catch {
      // Not allowed here, or no prlimit: the test runs with the limit it has.
    }
    server = await startServer({ fileLimit: 4096 });
    port = Number(new URL(server.url).port);
  });
  afterAll(async () => {
    for (const socket of sockets) socket.destroy();
    await server?.stop();
  });

  test("a connection that sends nothing, or its headers a byte at a time, is closed within 15 s", async () => {
    const closedAfter = (trickle: boolean) =>
      new Promise<number>((resolve) => {
        const started = performance.now();
        const socket = connect(port, "127.0.0.1");
        const request =
          "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: 0123456789012345678901234567890123456789\r\n\r\n";
        let sent = 0;
        const timer = trickle
          ? setInterval(() => {
              if (sent < request.length && !socket.destroyed) socket.write(request[sent++]!);
            }, 300)
          : undefined;
        socket.on("error", () => {
          // A reset by the server is expected: the close handler below does the timing.
        });
        socket.on("close", () => {
          clearInterval(timer);
          resolve(performance.now() - started);
        });
      });
    const [silent, slow] = await Promise.all([closedAfter(false), closedAfter(true)]);
    expect(silent).toBeLessThan(15_000);
    expect(slow).toBeLessThan(15_000);
  }, 30_000);

  test("with 5,000 idle or slow connections held, a visitor still gets the home page", async () => {
    const opened = async (slow: boolean) =>
      new Promise<void>((resolve) => {
        const socket = connect(port, "127.0.0.1");
        sockets.push(socket);
        socket.on("error", () => {
          // The server may reset held connections; without a handler that would throw.
        });
        socket.on("connect", () => {
          if (slow) socket.write("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n");
          resolve();
        });
        socket.on("close", () => resolve());
      });
    for (let i = 0; i < 5000; i += 250) {
      await Promise.all(Array.from({ length: 250 }, (_, j) => opened((i + j) % 2 === 0)));
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
    const started = performance.now();
    const home = await getFrom(`${server.url}/`);
    const elapsed = performance.now() - started;
    expect(home.status).toBe(200);
    // Measured well under a second (issue 11's target); bounded loosely here, as a timed test must not flake.
    console.log(`home page with 5,000 idle or slow connections held: ${Math.round(elapsed)} ms`);
    expect(elapsed).toBeLessThan(5000);
    // The server kept within its descriptors by closing the oldest idle connections.
    expect(sockets.filter((s) => s.destroyed || s.readyState === "closed").length).toBeGreaterThan(0);
    expect(server.child.exitCode).toBeNull();
  }, 60_000);
});
