import { expect, test } from "vitest";
import { relatedOrder } from "#app/data/sql/read-store.ts";

test("related candidates: most tags shared, then nearest; ties in the order the candidates came", () => {
  // id → tags shared, in the order the candidates were read (by tag, then side).
  const shared = new Map([
    [40, 1],
    [60, 1], // as near as 40: after it
    [45, 1],
    [30, 2],
    [70, 2], // as near as 30: after it
    [55, 1], // as near as 45: after it
  ]);
  expect(relatedOrder(shared, 50, shared.size)).toEqual([30, 70, 45, 55, 40, 60]);
  for (let count = 1; count <= shared.size; count++) {
    expect(relatedOrder(shared, 50, count)).toEqual([30, 70, 45, 55, 40, 60].slice(0, count));
  }
});

test("the best few picked in one pass are the first few of all of them ranked", () => {
  // Many candidates, few kinds of key: ties everywhere (a seeded generator, the same every run).
  let seed = 7;
  const next = (n: number) => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed % n;
  };
  for (let round = 0; round < 200; round++) {
    const shared = new Map<number, number>();
    const size = 40 + next(400);
    for (let i = 0; i < size; i++) shared.set(next(600), 1 + next(3));
    const all = relatedOrder(shared, 300, shared.size);
    expect(all).toHaveLength(shared.size);
    for (const count of [1, 4, 8, 9]) expect(relatedOrder(shared, 300, count)).toEqual(all.slice(0, count));
  }
});
