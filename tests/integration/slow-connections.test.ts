// Decision 034: no one client takes the site down with idle or slow
// connections. Its bounds are loose (a close within 15 s of a 10 s timeout,
// a page within 5 s), so it runs beside other files, not with the timed ones.
import { execFileSync } from "node:child_process";
import { connect, type Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type RunningServer, startServer } from "#tests/support/server.ts";

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
        // Read (and drop) what the server sends: when Node's own headers timeout wins the race
        // with the server's sweep, it writes a 408 before closing, and a socket whose data is
        // never read never emits "close" (the test then waited out its 30 s, once under load).
        socket.resume();
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
  });

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
    const home = await fetch(`${server.url}/`);
    const elapsed = performance.now() - started;
    expect(home.status).toBe(200);
    // Measured well under a second; bounded loosely here, as a timed test must not flake.
    console.log(`home page with 5,000 idle or slow connections held: ${Math.round(elapsed)} ms`);
    expect(elapsed).toBeLessThan(5000);
    // The server kept within its descriptors by closing the oldest idle connections.
    expect(sockets.filter((s) => s.destroyed || s.readyState === "closed").length).toBeGreaterThan(0);
    expect(server.child.exitCode).toBeNull();
  });
});
