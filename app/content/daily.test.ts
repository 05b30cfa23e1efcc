import { expect, test } from "vitest";
import { dailyOffset, dayNumber } from "#app/content/daily.ts";

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
