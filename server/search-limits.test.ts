import { expect, test } from "vitest";
import { clientKey, SearchLimiter, SearchTurns } from "./search-limits.ts";

test("a client past its share gets 429 at once; the others wait their turn", async () => {
  const limiter = new SearchLimiter({ maxRunning: 1, perClient: 2, maxQueued: 10, maxWaitMs: 1000 });
  const a1 = limiter.admit("a");
  const a2 = limiter.admit("a");
  expect(await limiter.admit("a")).toEqual({ ok: false, status: 429, retryAfterSeconds: 1 });
  const first = await a1;
  expect(first.ok).toBe(true);
  expect(limiter.running).toBe(1);
  expect(limiter.queued).toBe(1);
  if (first.ok) first.release();
  const second = await a2;
  expect(second.ok).toBe(true);
  if (second.ok) second.release();
  // Released: the client has its whole share again.
  const again = await limiter.admit("a");
  expect(again.ok).toBe(true);
});

test("past the line's length or its wait, 503", async () => {
  const limiter = new SearchLimiter({ maxRunning: 1, perClient: 10, maxQueued: 1, maxWaitMs: 50 });
  const running = await limiter.admit("a");
  expect(running.ok).toBe(true);
  const waiting = limiter.admit("b");
  expect(await limiter.admit("c")).toEqual({ ok: false, status: 503, retryAfterSeconds: 2 });
  expect(await waiting).toEqual({ ok: false, status: 503, retryAfterSeconds: 2 });
  expect(limiter.queued).toBe(0);
});

test("clients are addresses; IPv6 by /64, IPv4-mapped as IPv4", () => {
  expect(clientKey("203.0.113.9")).toBe("203.0.113.9");
  expect(clientKey("::ffff:203.0.113.9")).toBe("203.0.113.9");
  expect(clientKey("2001:db8:1:2:aaaa::1")).toBe("2001:db8:1:2");
  expect(clientKey("2001:db8:1:2:bbbb:cccc:dddd:eeee")).toBe("2001:db8:1:2");
  expect(clientKey("2001:db8::1")).toBe("2001:db8:0:0");
  expect(clientKey(undefined)).toBe("unknown");
});

test("search requests take turns: one per turn of the event loop, in the order they came", async () => {
  const turns = new SearchTurns();
  let turn = 0;
  let ticking = true;
  const tick = () => {
    turn++;
    if (ticking) setImmediate(tick);
  };
  setImmediate(tick);
  const ran: [string, number][] = [];
  await new Promise<void>((resolve) => {
    for (const name of ["a", "b", "c"]) turns.run(() => ran.push([name, turn]));
    turns.run(resolve);
  });
  ticking = false;
  expect(ran.map(([name]) => name)).toEqual(["a", "b", "c"]);
  // Each on a turn of its own.
  expect(new Set(ran.map(([, at]) => at)).size).toBe(3);
  expect(turns.waiting).toBe(0);
});

test("the next search to start is another client's before a second of the same client's", async () => {
  const limiter = new SearchLimiter({ maxRunning: 1, perClient: 4, maxQueued: 10, maxWaitMs: 5000 });
  const first = await limiter.admit("flood");
  if (!first.ok) throw new Error("the first search must start");
  const started: string[] = [];
  const admitted = (client: string) =>
    limiter.admit(client).then((admission) => {
      started.push(client);
      return admission;
    });
  const second = admitted("flood");
  const third = admitted("flood");
  const visitor = admitted("visitor");
  // The flood has two in line, the visitor one: the visitor's starts first, though it came last.
  first.release();
  const running = await Promise.race([second, visitor]);
  expect(started).toEqual(["visitor"]);
  if (running.ok) running.release();
  const next = await second;
  expect(started).toEqual(["visitor", "flood"]);
  if (next.ok) next.release();
  const last = await third;
  if (last.ok) last.release();
  expect(limiter.running).toBe(0);
});
