import { expect, test } from "vitest";
import { MAX_CLIENTS, RateBuckets } from "./api-gate.ts";

test("a client has its requests a minute, refilled evenly; Retry-After is the wait for the next", () => {
  let now = 1_000_000;
  const buckets = new RateBuckets(3, () => now);
  expect([buckets.take("a"), buckets.take("a"), buckets.take("a")]).toEqual([0, 0, 0]);
  // One token comes back every 20 s.
  expect(buckets.take("a")).toBe(20);
  now += 5_000;
  expect(buckets.take("a")).toBe(15);
  // Another client is not held up by the first.
  expect(buckets.take("b")).toBe(0);
  now += 15_000;
  expect(buckets.take("a")).toBe(0);
  expect(buckets.take("a")).toBe(20);
  // A minute idle fills the bucket again, never past its size.
  now += 600_000;
  expect([buckets.take("a"), buckets.take("a"), buckets.take("a"), buckets.take("a")]).toEqual([0, 0, 0, 20]);
});

test("the clients kept are bounded: full buckets are forgotten first, a flood starts afresh", () => {
  let now = 0;
  const buckets = new RateBuckets(60, () => now);
  for (let i = 0; i < MAX_CLIENTS; i++) buckets.take(`c${i}`);
  expect(buckets.size).toBe(MAX_CLIENTS);
  // A second later every bucket holds 60 tokens again: all of them are forgotten for the newcomer.
  now += 1_000;
  expect(buckets.take("new")).toBe(0);
  expect(buckets.size).toBe(1);
  // Clients that are still spending: past the bound, the map is emptied rather than scanned each time.
  for (let i = 0; i < MAX_CLIENTS; i++) buckets.take(`d${i}`);
  expect(buckets.take("another")).toBe(0);
  expect(buckets.size).toBeLessThanOrEqual(MAX_CLIENTS / 2);
});
