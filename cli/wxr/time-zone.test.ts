import { expect, test } from "vitest";
import { postTimeOf, zonedTimeToEpoch } from "#cli/wxr/time-zone.ts";

test("postTime from wp:post_date_gmt; drafts' zero GMT dates fall back to wp:post_date in the site time zone", () => {
  expect(
    postTimeOf({ postDateGmt: "2024-01-01 04:30:00", postDate: "2024-01-01 10:00:00" }, "Asia/Kolkata"),
  ).toBe(Date.UTC(2024, 0, 1, 4, 30) / 1000);
  expect(
    postTimeOf({ postDateGmt: "0000-00-00 00:00:00", postDate: "2024-03-10 09:30:00" }, "Asia/Kolkata"),
  ).toBe(Date.UTC(2024, 2, 10, 4, 0) / 1000);
  expect(postTimeOf({ postDateGmt: "", postDate: "0000-00-00 00:00:00" }, "Asia/Kolkata")).toBeNull();
  // Across a DST change the offset of that day is used.
  expect(zonedTimeToEpoch([2024, 7, 1, 12, 0, 0], "America/New_York")).toBe(Date.UTC(2024, 6, 1, 16) / 1000);
  expect(zonedTimeToEpoch([2024, 1, 15, 12, 0, 0], "America/New_York")).toBe(
    Date.UTC(2024, 0, 15, 17) / 1000,
  );
});
