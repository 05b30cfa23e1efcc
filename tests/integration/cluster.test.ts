// Decision 035, "Every core": npm start runs workers; one that dies is replaced;
// SIGTERM drains them all and exits 0. The three tests run at once, each on a
// server of its own: none bounds a time, so the file runs with the others.
import { readFileSync } from "node:fs";
import { createServer } from "node:net";
import { test } from "vitest";
import { READY_MS } from "#tests/support/limits.ts";
import { freePort, startServer } from "#tests/support/server.ts";

function childrenOf(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8")
      .trim()
      .split(/\s+/)
      .filter(Boolean)
      .map(Number);
  } catch {
    return [];
  }
}

async function until<T>(read: () => T | Promise<T>, ok: (value: T) => boolean, ms = READY_MS): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (ok(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

test.concurrent("WEB_CONCURRENCY=2: two workers serve; a killed worker is replaced; SIGTERM drains all and exits 0", async ({
  expect,
}) => {
  const server = await startServer({ env: { WEB_CONCURRENCY: "2", LOG_LEVEL: "info" } });
  const primary = server.child.pid!;
  try {
    const workers = await until(
      () => childrenOf(primary),
      (pids) => pids.length === 2,
    );
    expect(workers).toHaveLength(2);
    // Both answer: the primary hands connections to each in turn.
    const pages = await Promise.all(Array.from({ length: 20 }, () => fetch(`${server.url}/tags`)));
    expect(pages.map((page) => page.status)).toEqual(pages.map(() => 200));
    // The origin line is said once, by the primary, when every worker listens
    // (a worker may answer before the other is up).
    const originLines = () => server.output().match(/"msg":"origin"/g)?.length ?? 0;
    await until(originLines, (count) => count > 0);
    expect(originLines()).toBe(1);

    process.kill(workers[0]!, "SIGKILL");
    const replaced = await until(
      () => childrenOf(primary),
      (pids) => pids.length === 2 && !pids.includes(workers[0]!),
    );
    expect(replaced).toHaveLength(2);
    expect(replaced).not.toContain(workers[0]);
    // The primary logs the death before it forks the new worker, but its log lines are written
    // a turn later and reach this process through a pipe: the new worker can be seen first.
    expect(
      await until(server.output, (output) => output.includes("worker died; starting another")),
    ).toContain("worker died; starting another");
    const after = await Promise.all(Array.from({ length: 10 }, () => fetch(`${server.url}/`)));
    expect(after.map((page) => page.status)).toEqual(after.map(() => 200));
  } finally {
    const code = await server.stop();
    expect(code).toBe(0);
  }
  const left = childrenOf(primary);
  expect(left).toEqual([]);
});

test.concurrent("a worker that cannot start stops the whole server with its message", async ({ expect }) => {
  const busy = createServer();
  const port = await freePort();
  await new Promise<void>((resolve) => busy.listen(port, "127.0.0.1", resolve));
  try {
    await expect(startServer({ env: { WEB_CONCURRENCY: "2", PORT: String(port) } })).rejects.toThrow(
      /sukti: cannot listen on 127\.0\.0\.1:\d+[\s\S]*sukti: a worker could not start/,
    );
  } finally {
    busy.close();
  }
});

test.concurrent("a database that cannot be opened stops the primary before any worker starts", async ({
  expect,
}) => {
  await expect(
    startServer({ env: { WEB_CONCURRENCY: "2", DATABASE_URL: "file:/etc/hostname/sukti.db" } }),
  ).rejects.toThrow(/sukti: cannot open database/);
});
