// The sender's small parts (decision 060): the opening words, the hour and
// local day in a subscriber's zone, Retry-After, and why sending cannot start.
import { describe, expect, test } from "vitest";
import { parseEnv } from "#app/env.server.ts";
import { pushConfig } from "./config.ts";
import { parseRetryAfter } from "./post.ts";
import { cannotSend, localHour, openingWords } from "./sender.ts";

const base = {
  PUSH_MAX_SUBSCRIPTIONS: 10,
  PUSH_SUBSCRIPTIONS_PER_ADDRESS: 1,
  PUSH_REQUESTS_PER_MINUTE: 1,
  PUSH_TICK_MS: 1000,
  PUSH_CONCURRENCY: 1,
  PUSH_TTL: 60,
};

describe("the sender's parts", () => {
  test("opening words: whole when short, cut at a word with an ellipsis when long", () => {
    expect(openingWords("  Be   still. ")).toBe("Be still.");
    const long = "होइहि सोइ जो राम रचि राखा। को करि तर्क बढ़ावै साखा॥ ".repeat(5);
    const cut = openingWords(long, 40);
    expect(cut.length).toBeLessThanOrEqual(41);
    expect(cut.endsWith("…")).toBe(true);
    expect(long.startsWith(cut.slice(0, -1))).toBe(true);
  });

  test("the local day and hour in a zone, across a DST change", () => {
    // 2026-03-29 00:30 UTC: Paris is still on winter time (01:30); at 01:30 UTC, summer (03:30).
    expect(localHour("Europe/Paris", Date.UTC(2026, 2, 29, 0, 30))).toEqual({ day: "2026-03-29", hour: 1 });
    expect(localHour("Europe/Paris", Date.UTC(2026, 2, 29, 1, 30))).toEqual({ day: "2026-03-29", hour: 3 });
    expect(localHour("Asia/Kolkata", Date.UTC(2026, 11, 4, 18, 45))).toEqual({ day: "2026-12-05", hour: 0 });
    expect(localHour("America/Los_Angeles", Date.UTC(2026, 11, 4, 7, 59))).toEqual({
      day: "2026-12-03",
      hour: 23,
    });
  });

  test("Retry-After: seconds or an HTTP date", () => {
    expect(parseRetryAfter("120")).toBe(120);
    expect(parseRetryAfter(new Date(Date.UTC(2026, 0, 1, 0, 1)).toUTCString(), Date.UTC(2026, 0, 1))).toBe(
      60,
    );
    expect(parseRetryAfter("soon")).toBeNull();
    expect(parseRetryAfter(undefined)).toBeNull();
  });

  test("sending needs PUBLIC_URL and a VAPID subject (an https PUBLIC_URL is one)", () => {
    expect(cannotSend(pushConfig({ ...base }))).toMatch(/^PUBLIC_URL is not set/);
    expect(cannotSend(pushConfig({ ...base, PUBLIC_URL: "http://127.0.0.1:3000" }))).toMatch(
      /^VAPID_SUBJECT/,
    );
    expect(cannotSend(pushConfig({ ...base, PUBLIC_URL: "https://quotes.example" }))).toBeNull();
    expect(pushConfig({ ...base, PUBLIC_URL: "https://quotes.example/x" }).subject).toBe(
      "https://quotes.example",
    );
    expect(
      cannotSend(
        pushConfig({ ...base, PUBLIC_URL: "http://127.0.0.1:3000", VAPID_SUBJECT: "mailto:a@b.example" }),
      ),
    ).toBeNull();
  });

  test("VAPID_SUBJECT is checked at start: a mailto: or https: URL", () => {
    expect(parseEnv({ VAPID_SUBJECT: "mailto:ops@quotes.example" }).VAPID_SUBJECT).toBe(
      "mailto:ops@quotes.example",
    );
    expect(parseEnv({ VAPID_SUBJECT: "https://quotes.example/contact" }).VAPID_SUBJECT).toBeDefined();
    for (const bad of ["http://quotes.example", "ops@quotes.example", "mailto:", "https://"])
      expect(() => parseEnv({ VAPID_SUBJECT: bad }), bad).toThrow(
        /VAPID_SUBJECT: must be a mailto: or https: URL/,
      );
  });
});
