// The quote of the day: one post for every visitor all day in the site's time
// zone, another the next day, cycling through the whole collection.
const MS_PER_DAY = 86_400_000;

/** Making an Intl formatter costs far more than using one: one per time zone. */
const dayFormatters = new Map<string, Intl.DateTimeFormat>();

/** Each time zone's last day asked, by the second it was asked for (formatToParts: ~11 µs). */
const lastDays = new Map<string, { second: number; day: number }>();

/** Days since 1970-01-01 in `timeZone` (the calendar date there, not UTC's). */
export function dayNumber(now: Date, timeZone: string): number {
  let formatter = dayFormatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat("en-CA", {
      timeZone,
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
    });
    dayFormatters.set(timeZone, formatter);
  }
  // Asked again within the same second (the root loader's year, every page): the last answer.
  const second = Math.floor(now.getTime() / 1000);
  const last = lastDays.get(timeZone);
  if (last !== undefined && last.second === second) return last.day;
  const parts = Object.fromEntries(formatter.formatToParts(now).map((part) => [part.type, part.value]));
  const day = Math.round(
    Date.UTC(Number(parts.year), Number(parts.month) - 1, Number(parts.day)) / MS_PER_DAY,
  );
  lastDays.set(timeZone, { second, day });
  return day;
}

/** The year of `now` in `timeZone` (the footer's copyright year). */
export function yearIn(now: Date, timeZone: string): number {
  return new Date((dayNumber(now, timeZone) + 0.5) * MS_PER_DAY).getUTCFullYear();
}

/**
 * The site's calendar day, read at most once a second: pages that show the
 * quote of the day (and the year) are cached per content version and day
 * (server/app.ts), so they change at midnight in the site's time zone.
 */
export function siteDayClock(timeZone: string, now: () => number = Date.now): () => number {
  let day = 0;
  let readAt = Number.NEGATIVE_INFINITY;
  return () => {
    const at = now();
    if (at - readAt >= 1000 || at < readAt) {
      day = dayNumber(new Date(at), timeZone);
      readAt = at;
    }
    return day;
  };
}

// A prime stride scatters consecutive days across the collection; consecutive
// days differ whenever count > 1 and count does not divide the stride.
const STRIDE = 7919;

export function dailyOffset(day: number, count: number): number {
  if (count <= 0) return 0;
  return (((day * STRIDE) % count) + count) % count;
}
