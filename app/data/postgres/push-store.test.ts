// The push store (app/data/push-store.server.ts, decision 060) on both
// databases, two stores opened on one database as two nodes would: one VAPID
// key pair whoever makes it first; a send claimed once; a lease held by one;
// the caps; and (PostgreSQL) no push write changes the content version.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { createPool } from "#app/data/postgres/pool.server.ts";
import { openPushStore, type PushStore, pushDatabaseUrl } from "#app/data/push-store.server.ts";
import { postgresAvailable, sharedPostgres, type TestPostgres } from "#tests/support/postgres.ts";
import { makeVapidKeys } from "../../../server/push/config.ts";

const available = postgresAvailable();
const cleanups: (() => Promise<void>)[] = [];

afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

async function sqliteUrl(): Promise<string> {
  const dir = mkdtempSync(path.join(tmpdir(), "sukti-push-store-"));
  cleanups.push(async () => rmSync(dir, { recursive: true, force: true }));
  return pushDatabaseUrl(`file:${path.join(dir, "sukti.db")}`);
}

let postgres: TestPostgres | null = null;
async function postgresUrl(name: string): Promise<string> {
  if (!postgres) {
    postgres = await sharedPostgres();
    const server = postgres;
    cleanups.unshift(() => server.stop());
  }
  return postgres.createDatabase(name);
}

const kinds = [
  { name: "SQLite", url: () => sqliteUrl(), skip: false },
  { name: "PostgreSQL", url: () => postgresUrl(`push_${Date.now()}`), skip: !available },
];

const subscription = (n: number, language: "english" | "hindi" = "english") => ({
  endpoint: `https://fcm.googleapis.com/fcm/send/${n}`,
  p256dh: "BAAA",
  auth: "AAAA",
  language,
  hour: 7,
  timeZone: "Asia/Kolkata",
});

for (const kind of kinds) {
  describe.skipIf(kind.skip)(`the push store on ${kind.name}`, () => {
    test("two nodes: one key pair, a send claimed once, one lease holder, the caps", async () => {
      const url = await kind.url();
      const [one, two] = (await Promise.all([openPushStore(url), openPushStore(url)])) as [
        PushStore,
        PushStore,
      ];
      try {
        // Both make a key at once: both end with the one stored.
        const [a, b] = await Promise.all([one.keys(makeVapidKeys), two.keys(makeVapidKeys)]);
        expect(a).toEqual(b);
        expect(Buffer.from(a.publicKey, "base64url")).toHaveLength(65);
        expect(Buffer.from(a.privateKey, "base64url")).toHaveLength(32);
        expect(await one.keys(makeVapidKeys)).toEqual(a);

        expect(await one.subscribe(subscription(1), "2026-12-04", 3)).toBe("created");
        expect(await two.subscribe({ ...subscription(1), hour: 9 }, "2026-12-04", 3)).toBe("updated");
        expect(await one.subscribe(subscription(2, "hindi"), "2026-12-04", 3, false)).toBe("capped");
        expect(await one.subscribe(subscription(2, "hindi"), "2026-12-04", 3)).toBe("created");
        expect(await one.subscribe(subscription(3), "2026-12-04", 3)).toBe("created");
        expect(await one.subscribe(subscription(4), "2026-12-04", 3)).toBe("full");
        expect(await one.count()).toBe(3);
        expect(await one.summary()).toEqual([
          { language: "english", hour: 7, count: 1 },
          { language: "english", hour: 9, count: 1 },
          { language: "hindi", hour: 7, count: 1 },
        ]);
        expect(await one.zones()).toEqual(["Asia/Kolkata"]);

        // Due at 07:00 in Kolkata on a day: subscribers 2 and 3; a claim is taken once.
        const due = await one.due("Asia/Kolkata", 7, "day:2026-12-04", 0, 10);
        expect(due.map((s) => s.endpoint)).toEqual([subscription(2).endpoint, subscription(3).endpoint]);
        const run = await one.startRun("scheduled", "", 1000);
        const claims = await Promise.all([
          one.claim(due[0]?.id ?? 0, "day:2026-12-04", run.id, 1000),
          two.claim(due[0]?.id ?? 0, "day:2026-12-04", run.id, 1000),
        ]);
        expect(claims.filter(Boolean)).toHaveLength(1);
        expect((await two.due("Asia/Kolkata", 7, "day:2026-12-04", 0, 10)).map((s) => s.id)).toEqual([
          due[1]?.id,
        ]);
        // A retry is taken back by one sender only.
        await one.settle(due[0]?.id ?? 0, "day:2026-12-04", "retry", 2000, 1000);
        expect(await one.pendingRetries(run.id)).toEqual({ count: 1, nextAt: 2000 });
        expect(await one.dueRetries(1500, 10)).toEqual([]);
        expect((await one.dueRetries(2000, 10)).map((r) => [r.id, r.slot, r.attempts])).toEqual([
          [due[0]?.id, "day:2026-12-04", 1],
        ]);
        const retakes = await Promise.all([
          one.claimRetry(due[0]?.id ?? 0, "day:2026-12-04", 2000),
          two.claimRetry(due[0]?.id ?? 0, "day:2026-12-04", 2000),
        ]);
        expect(retakes.filter(Boolean)).toHaveLength(1);
        await one.addToRun(run.id, { sent: 1, retried: 1 }, 3000);
        await one.endRun(run.id, "done", 3000);
        expect(await two.lastRun()).toMatchObject({ id: run.id, state: "done", sent: 1, retried: 1 });

        // A manual run: the subscribers there were when it started, of its language.
        const manual = await one.startRun("manual", "english", 4000);
        await one.subscribe(
          { ...subscription(2), endpoint: "https://fcm.googleapis.com/fcm/send/late" },
          "d",
          10,
        );
        const members = await one.runMembers("english", manual.lastSubscription, `run:${manual.id}`, 0, 10);
        expect(members.map((s) => s.endpoint)).toEqual([subscription(1).endpoint, subscription(3).endpoint]);
        expect(await two.unfinishedRun("english")).toMatchObject({ id: manual.id });
        expect(await two.unfinishedRun("hindi")).toBeNull();
        expect((await two.staleRuns(5000)).map((r) => r.id)).toEqual([manual.id]);

        // The lease: one holder until it runs out or is released.
        expect(await one.lease("a", 10_000, 5000)).toBe(true);
        expect(await two.lease("b", 10_001, 5000)).toBe(false);
        expect(await one.lease("a", 12_000, 5000)).toBe(true);
        expect(await two.lease("b", 16_000, 5000)).toBe(false);
        expect(await two.lease("b", 17_001, 5000)).toBe(true);
        await two.releaseLease("b");
        expect(await one.lease("a", 17_002, 5000)).toBe(true);

        // Removing a subscription removes its sends.
        await one.remove(due[0]?.id ?? 0);
        expect(await one.pendingRetries(run.id)).toEqual({ count: 0, nextAt: null });
        expect(await two.unsubscribe(subscription(3).endpoint)).toBe(true);
        expect(await two.unsubscribe(subscription(3).endpoint)).toBe(false);
      } finally {
        await one.close();
        await two.close();
      }
    });

    if (kind.name === "PostgreSQL") {
      test("push writes leave the content version alone", async () => {
        const url = await kind.url();
        const store = (await openPushStore(url)) as PushStore;
        const pool = createPool(url, { max: 1 });
        try {
          const version = async () =>
            (await pool.query<{ version: number }>("SELECT version FROM content_version WHERE id = 1"))
              .rows[0]?.version;
          const before = await version();
          await store.keys(makeVapidKeys);
          await store.subscribe(subscription(1), "2026-12-04", 10);
          const run = await store.startRun("manual", "", 1);
          await store.claim(1, `run:${run.id}`, run.id, 1);
          expect(await version()).toBe(before);
        } finally {
          await store.close();
          await pool.end();
        }
      });
    }
  });
}
