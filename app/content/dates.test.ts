import { expect, test } from "vitest";
import { dateString, postDateTime } from "#app/content/dates.ts";

test("postDateTime is the first 16 characters of the date string", () => {
  const time = 1_763_779_764; // 2025-11-22T02:49:24Z
  expect(dateString(time, "UTC")).toBe("2025-11-22 02:49:24");
  expect(postDateTime(time, "UTC")).toBe("2025-11-22 02:49");
  expect(postDateTime(time, "UTC")).toHaveLength(16);
});

test("postDateTime is formatted in the site's time zone", () => {
  expect(postDateTime(0, "Asia/Kolkata")).toBe("1970-01-01 05:30");
  // 20:00 UTC is past midnight in India: the date moves too.
  expect(postDateTime(1_700_000_000 - (1_700_000_000 % 86_400) + 20 * 3600, "Asia/Kolkata")).toBe(
    "2023-11-15 01:30",
  );
  expect(postDateTime(0, "America/New_York")).toBe("1969-12-31 19:00");
});

test("midnight is 00, never 24", () => {
  expect(postDateTime(18 * 3600 + 30 * 60, "Asia/Kolkata")).toBe("1970-01-02 00:00");
});
