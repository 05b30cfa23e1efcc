// The quote of the day: one post for every visitor all day in the site's time
// zone, another the next day, cycling through the whole collection.
const MS_PER_DAY = 86_400_000;

/** Days since 1970-01-01 in `timeZone` (the calendar date there, not UTC's). */
export function dayNumber(now: Date, timeZone: string): number {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" })
      .formatToParts(now)
      .map((part) => [part.type, part.value]),
  );
  return Math.round(Date.UTC(Number(parts.year), Number(parts.month) - 1, Number(parts.day)) / MS_PER_DAY);
}

// A prime stride scatters consecutive days across the collection; consecutive
// days differ whenever count > 1 and count does not divide the stride.
const STRIDE = 7919;

export function dailyOffset(day: number, count: number): number {
  if (count <= 0) return 0;
  return (((day * STRIDE) % count) + count) % count;
}
