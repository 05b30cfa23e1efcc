import { expect, test } from "vitest";
import { dailyOffset, dayNumber, siteDayClock, yearIn } from "#app/content/daily.ts";

test("the day changes at midnight in the site's time zone, not UTC's", () => {
  const beforeMidnightIst = new Date("2026-11-22T18:29:00Z"); // 23:59 IST
  const afterMidnightIst = new Date("2026-11-22T18:31:00Z"); // 00:01 IST
  expect(dayNumber(afterMidnightIst, "Asia/Kolkata")).toBe(dayNumber(beforeMidnightIst, "Asia/Kolkata") + 1);
  expect(dayNumber(afterMidnightIst, "UTC")).toBe(dayNumber(beforeMidnightIst, "UTC"));
  expect(dayNumber(new Date("1970-01-01T12:00:00Z"), "UTC")).toBe(0);
});

test("the same day gives the same offset; the next day another", () => {
  for (const count of [2, 3, 24, 45, 1000, 33_333]) {
    for (let day = 20_000; day < 20_060; day++) {
      const offset = dailyOffset(day, count);
      expect(offset).toBeGreaterThanOrEqual(0);
      expect(offset).toBeLessThan(count);
      expect(dailyOffset(day, count)).toBe(offset);
      expect(dailyOffset(day + 1, count)).not.toBe(offset);
    }
  }
});

test("over count days every post gets its day", () => {
  const count = 45;
  const seen = new Set(Array.from({ length: count }, (_, i) => dailyOffset(20_000 + i, count)));
  expect(seen.size).toBe(count);
});

test("an empty collection gives offset 0", () => {
  expect(dailyOffset(20_000, 0)).toBe(0);
  expect(dailyOffset(20_000, 1)).toBe(0);
});

test("the site's year and its day clock follow the site's time zone", () => {
  expect(yearIn(new Date("2026-12-31T18:31:00Z"), "Asia/Kolkata")).toBe(2027); // 00:01 IST on 1 January
  expect(yearIn(new Date("2026-12-31T18:31:00Z"), "UTC")).toBe(2026);
  let now = Date.parse("2026-11-22T18:29:59.500Z"); // 23:59:59.5 IST
  const today = siteDayClock("Asia/Kolkata", () => now);
  const before = today();
  now += 1000; // past midnight IST
  expect(today()).toBe(before + 1);
  now += 200; // read again within the second: the same answer
  expect(today()).toBe(before + 1);
});
