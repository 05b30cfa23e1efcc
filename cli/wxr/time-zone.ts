import { dateString } from "#app/content/dates.ts";
import type { WxrItem } from "#cli/wxr/types.ts";

const ZERO_DATE = /^0000-00-00/;

function parseWpDate(value: string): [number, number, number, number, number, number] | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2}):(\d{2})$/.exec(value);
  if (!match || ZERO_DATE.test(value)) return null;
  const [, ...parts] = match;
  return parts.map(Number) as [number, number, number, number, number, number];
}

/** Epoch seconds of a wall-clock time in an IANA time zone (DST-aware: the offset is re-read once). */
export function zonedTimeToEpoch(
  [year, month, day, hour, minute, second]: [number, number, number, number, number, number],
  timeZone: string,
): number {
  const wall = Date.UTC(year, month - 1, day, hour, minute, second) / 1000;
  const offsetAt = (epoch: number) => {
    const [date = "", time = ""] = dateString(epoch, timeZone).split(" ");
    // A missing part is NaN, as Date.UTC reads undefined.
    const [y = Number.NaN, mo = Number.NaN, d = Number.NaN] = date.split("-").map(Number);
    const [h = Number.NaN, mi = Number.NaN, s = Number.NaN] = time.split(":").map(Number);
    return Date.UTC(y, mo - 1, d, h, mi, s) / 1000 - epoch;
  };
  const first = wall - offsetAt(wall);
  return wall - offsetAt(first);
}

/** wp:post_date_gmt, or for drafts (zeros there) wp:post_date in the site's time zone. */
export function postTimeOf(item: Pick<WxrItem, "postDate" | "postDateGmt">, timeZone: string): number | null {
  const gmt = parseWpDate(item.postDateGmt);
  if (gmt) return zonedTimeToEpoch(gmt, "UTC");
  const local = parseWpDate(item.postDate);
  return local ? zonedTimeToEpoch(local, timeZone) : null;
}
