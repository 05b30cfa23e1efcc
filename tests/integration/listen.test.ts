// Decision 052: a post's recording, imported as `audio`, on
// SQLite and PostgreSQL: stored and read again (an import of the same record
// changes nothing, a new address updates it), shown as a native player,
// named in the post's JSON-LD and in the feed's <enclosure> (its size when the
// site serves the file), and the file served with byte ranges and cached. The
// recording is a tiny WAV of silence the test writes into its own AUDIO_DIR.
import { mkdirSync, writeFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { get } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { runSukti } from "#tests/support/cli.ts";
import { postgresAvailable, sharedPostgres, type TestPostgres } from "#tests/support/postgres.ts";
import { type RunningServer, startServer } from "#tests/support/server.ts";
import { silentWav } from "#tests/support/wav.ts";

const ORIGIN = "https://sukti.example";

const WAV = silentWav(4000);

function posts(hindiAudio: string) {
  return {
    posts: [
      {
        idNum: 1,
        language: "hindi",
        status: "publish",
        postTime: 1_700_000_000,
        title: "ढाई आखर",
        slug: "dhai-akhar",
        content: "<p>पोथी पढ़ि पढ़ि जग मुआ, पंडित भया न कोय। ढाई आखर प्रेम का, पढ़े सो पंडित होय॥</p>",
        audio: hindiAudio,
      },
      {
        idNum: 1,
        language: "english",
        status: "publish",
        postTime: 1_700_000_100,
        title: "The river",
        slug: "the-river",
        content: "<p>The river does not drink its own water.</p>",
        audio: "https://media.example/river.mp3",
      },
      {
        idNum: 1,
        language: "marathi",
        status: "publish",
        postTime: 1_700_000_200,
        title: "वृक्षवल्ली",
        slug: "vrukshavalli",
        content: "<p>वृक्षवल्ली आम्हा सोयरी वनचरें।</p>",
      },
    ],
  };
}

/** The page's JSON-LD documents. */
function jsonLd(html: string): Record<string, unknown>[] {
  return [...html.matchAll(/<script type="application\/ld\+json"[^>]*>([\s\S]*?)<\/script>/g)].map((match) =>
    JSON.parse(match[1] ?? "null"),
  );
}

type Store = "sqlite" | "postgres";
const stores: Store[] = ["sqlite", ...(postgresAvailable() ? (["postgres"] as const) : [])];

describe.each(stores)("a post's recording on %s", (store) => {
  let pg: TestPostgres | null = null;
  let dir = "";
  let server: RunningServer | null = null;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "sukti-listen-"));
    mkdirSync(path.join(dir, "audio", "kabir"), { recursive: true });
    writeFileSync(path.join(dir, "audio", "kabir", "dhai akhar.wav"), WAV);
    if (store === "postgres") pg = await sharedPostgres();
    const databaseUrl = pg ? await pg.createDatabase("listen") : `file:${path.join(dir, "sukti.db")}`;
    const importFile = async (name: string, content: unknown) => {
      const file = path.join(dir, name);
      writeFileSync(file, JSON.stringify(content));
      const result = await runSukti(["import", file], { DATABASE_URL: databaseUrl });
      expect(result.status, result.stderr).toBe(0);
      return result.stdout;
    };
    expect(await importFile("first.json", posts("/audio/old.wav"))).toContain("posts: 3 created");
    // A new address is a change the writer sees; the same one is none.
    const local = "/audio/kabir/dhai%20akhar.wav";
    expect(await importFile("second.json", posts(local))).toContain(
      "posts: 0 created, 1 updated, 2 unchanged",
    );
    expect(await importFile("third.json", posts(local))).toContain(
      "posts: 0 created, 0 updated, 3 unchanged",
    );
    server = await startServer({
      env: { DATABASE_URL: databaseUrl, PUBLIC_URL: ORIGIN, AUDIO_DIR: path.join(dir, "audio") },
    });
  });

  afterAll(async () => {
    await server?.stop();
    await pg?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  test("the post shows a native player of its recording, named in its JSON-LD", async () => {
    const response = await fetch(`${server!.url}/hindi/dhai-akhar`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-security-policy")).toContain("media-src 'self' https:");
    const html = await response.text();
    expect(html).toMatch(
      /<audio controls="" preload="none" src="\/audio\/kabir\/dhai%20akhar.wav"><\/audio>/,
    );
    expect(html).toContain("<figcaption>रिकॉर्डिंग</figcaption>");
    const posting = jsonLd(html).find((doc) => doc["@type"] === "BlogPosting");
    expect(posting?.audio).toEqual({
      "@type": "AudioObject",
      contentUrl: `${ORIGIN}/audio/kabir/dhai%20akhar.wav`,
      encodingFormat: "audio/wav",
      inLanguage: "hi",
    });

    const english = await (await fetch(`${server!.url}/english/the-river`)).text();
    expect(english).toContain('src="https://media.example/river.mp3"');
    expect(jsonLd(english).find((doc) => doc["@type"] === "BlogPosting")?.audio).toMatchObject({
      contentUrl: "https://media.example/river.mp3",
      encodingFormat: "audio/mpeg",
    });

    // A post without a recording has no player and no audio in its JSON-LD.
    const marathi = await (await fetch(`${server!.url}/marathi/vrukshavalli`)).text();
    expect(marathi).not.toContain("<audio");
    expect(jsonLd(marathi).find((doc) => doc["@type"] === "BlogPosting")).not.toHaveProperty("audio");
  });

  test("the feeds carry it as an <enclosure>: the file's size when the site serves it, 0 when not", async () => {
    const hindi = await (await fetch(`${server!.url}/hindi/feed.xml`)).text();
    expect(hindi).toContain(
      `<enclosure url="${ORIGIN}/audio/kabir/dhai%20akhar.wav" length="${WAV.length}" type="audio/wav"/>`,
    );
    const english = await (await fetch(`${server!.url}/english/feed.xml`)).text();
    expect(english).toContain(
      '<enclosure url="https://media.example/river.mp3" length="0" type="audio/mpeg"/>',
    );
    const marathi = await (await fetch(`${server!.url}/marathi/feed.xml`)).text();
    expect(marathi).not.toContain("<enclosure");
  });

  test("the file is served with byte ranges, uncompressed, and cached", async () => {
    const url = `${server!.url}/audio/kabir/dhai%20akhar.wav`;
    const part = await fetch(url, { headers: { Range: "bytes=0-99", "Accept-Encoding": "gzip" } });
    expect(part.status).toBe(206);
    expect(part.headers.get("content-range")).toBe(`bytes 0-99/${WAV.length}`);
    expect(part.headers.get("content-encoding")).toBeNull();
    expect(Buffer.from(await part.arrayBuffer())).toEqual(WAV.subarray(0, 100));
    expect(part.headers.get("cache-control")).toBe("public, max-age=86400");

    const whole = await fetch(url, { headers: { "Accept-Encoding": "gzip" } });
    expect(whole.status).toBe(200);
    expect(whole.headers.get("accept-ranges")).toBe("bytes");
    expect(whole.headers.get("content-type")).toMatch(/^audio\/(x-)?wav/);
    expect(Buffer.from(await whole.arrayBuffer())).toEqual(WAV);
    const etag = whole.headers.get("etag");
    expect(etag).toBeTruthy();
    // node:http, since fetch adds its own cache headers to a conditional request.
    const again = await new Promise<number | undefined>((resolve, reject) =>
      get(url, { headers: { "If-None-Match": etag ?? "" } }, (res) => {
        res.resume();
        resolve(res.statusCode);
      }).on("error", reject),
    );
    expect(again).toBe(304);

    const tail = await fetch(url, { headers: { Range: `bytes=${WAV.length - 10}-` } });
    expect(tail.status).toBe(206);
    expect(tail.headers.get("content-range")).toBe(
      `bytes ${WAV.length - 10}-${WAV.length - 1}/${WAV.length}`,
    );
    const beyond = await fetch(url, { headers: { Range: `bytes=${WAV.length + 10}-` } });
    expect(beyond.status).toBe(416);
    await beyond.arrayBuffer();

    // Nothing outside the folder (the site's one-line 400), and a missing file is the site's 404.
    const outside = await fetch(`${server!.url}/audio/..%2fsukti.db`);
    expect(outside.status).toBe(400);
    expect(await outside.text()).toContain("Bad request");
    expect((await fetch(`${server!.url}/audio/missing.mp3`)).status).toBe(404);
  });
});
