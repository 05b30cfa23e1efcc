// SPEC §3: postDateTime is "the first 16 characters of the date string built
// from postTime". Our date string is ISO-like local time in the site's time
// zone ("2026-11-22 08:19:24"), so the 16 characters are "2026-11-22 08:19".
// Intl with an explicit time zone gives the same string on server and client.
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat("en-CA", {
      timeZone,
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
      hourCycle: "h23",
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/** The latest post time a record may carry (the importer's limit, app/content/schemas.ts): year 5138. */
export const MAX_EPOCH_SECONDS = 99_999_999_999;

/**
 * The Date of epoch seconds, held to [0, MAX_EPOCH_SECONDS]: a row written by
 * hand (or by an older version) with a time no Date can hold still renders,
 * where `new Date(…).toISOString()` would throw on every page listing it
 * (docs/decisions/044-bounded-reads.md).
 */
export function epochDate(seconds: number): Date {
  const value = Number(seconds);
  const held = Number.isFinite(value) ? Math.min(Math.max(value, 0), MAX_EPOCH_SECONDS) : 0;
  return new Date(held * 1000);
}

/** "YYYY-MM-DD HH:MM:SS" for the epoch seconds, in the given IANA time zone. */
export function dateString(postTime: number, timeZone: string): string {
  const key = `${timeZone} ${postTime}`;
  const known = dateStrings.get(key);
  if (known !== undefined) return known;
  const parts = Object.fromEntries(
    formatterFor(timeZone)
      .formatToParts(epochDate(postTime))
      .map((part) => [part.type, part.value]),
  );
  const text = `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}:${parts.second}`;
  if (dateStrings.size >= 4_096) dateStrings.clear();
  dateStrings.set(key, text);
  return text;
}

/**
 * Date strings made lately: formatToParts takes ~11 µs (measured), a list
 * page asks for 24 of them and a post page for 7, mostly the same recent
 * posts' over and over. Cleared when full.
 */
const dateStrings = new Map<string, string>();

export const POST_DATE_TIME_LENGTH = 16;

export function postDateTime(postTime: number, timeZone: string): string {
  return dateString(postTime, timeZone).slice(0, POST_DATE_TIME_LENGTH);
}

/** Machine-readable value for `<time dateTime>`. */
export function isoDateTime(postTime: number): string {
  return epochDate(postTime).toISOString();
}
