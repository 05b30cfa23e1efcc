// Decision 060: the daily quote by Web Push, end to end. The
// test is the push service: a listener on loopback (allowed through
// PUSH_ENDPOINT_HOSTS) that the built server's subscribers point at, each
// with its own P-256 keys. `sukti push send` POSTs to it; the test checks the
// VAPID JWT (ES256, aud, exp) against /push/public-key and decrypts the body
// per RFC 8291 with node:crypto written here (not web-push's code), finding
// the quote of the day's title and address. A 410 removes the subscription;
// a 429 with Retry-After is retried; a redirect is never followed; a send
// killed midway and run again sends the rest, each message once; two servers
// on one PostgreSQL send a subscriber's message at their hour once.
import { type ChildProcess, spawn } from "node:child_process";
import { createDecipheriv, createECDH, createHmac, createPublicKey, randomBytes, verify } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import http from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { runSukti } from "#tests/support/cli.ts";
import { READY_MS } from "#tests/support/limits.ts";
import { postgresAvailable, sharedPostgres, type TestPostgres } from "#tests/support/postgres.ts";
import { freePort, type RunningServer, startServer } from "#tests/support/server.ts";

const root = path.resolve(import.meta.dirname, "../..");
const SUBJECT = "mailto:push-test@example.com";

interface Received {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  at: number;
}

/** The test's push service: records every request; `answer` decides each status (and may hold it). */
class PushService {
  server!: http.Server;
  port = 0;
  received: Received[] = [];
  answer: (request: Received, res: http.ServerResponse) => void = (_request, res) => res.writeHead(201).end();

  async start() {
    this.port = await freePort();
    this.server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (chunk: Buffer) => chunks.push(chunk));
      req.on("end", () => {
        const request = {
          path: req.url ?? "",
          headers: req.headers,
          body: Buffer.concat(chunks),
          at: Date.now(),
        };
        this.received.push(request);
        this.answer(request, res);
      });
    });
    await new Promise<void>((resolve) => this.server.listen(this.port, "127.0.0.1", resolve));
  }

  to(pathname: string) {
    return this.received.filter((request) => request.path === pathname);
  }

  stop() {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(resolve));
  }
}

/** A browser's side of a subscription: its key pair and auth secret. */
function subscriber(endpoint: string) {
  const ecdh = createECDH("prime256v1");
  ecdh.generateKeys();
  const auth = randomBytes(16);
  return { endpoint, ecdh, auth };
}
type Subscriber = ReturnType<typeof subscriber>;

async function subscribe(
  server: RunningServer,
  who: Subscriber,
  language: string,
  hour = 7,
  timeZone = "Asia/Kolkata",
) {
  const response = await fetch(`${server.url}/push/subscriptions`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({
      subscription: {
        endpoint: who.endpoint,
        expirationTime: null,
        keys: { p256dh: who.ecdh.getPublicKey("base64url"), auth: who.auth.toString("base64url") },
      },
      language,
      hour,
      timeZone,
    }),
  });
  expect(response.status, await response.text()).toBe(201);
}

const hmac = (key: Buffer, data: Buffer) => createHmac("sha256", key).update(data).digest();

/** RFC 8291 (and RFC 8188's aes128gcm, one record): the plaintext of a push message body. */
function decrypt(who: Subscriber, body: Buffer): string {
  const salt = body.subarray(0, 16);
  const idLength = body[20] as number;
  const serverKey = body.subarray(21, 21 + idLength);
  const ciphertext = body.subarray(21 + idLength);
  expect(idLength).toBe(65);
  const secret = who.ecdh.computeSecret(serverKey);
  const keyInfo = Buffer.concat([Buffer.from("WebPush: info\0"), who.ecdh.getPublicKey(), serverKey]);
  const ikm = hmac(hmac(who.auth, secret), Buffer.concat([keyInfo, Buffer.from([1])]));
  const prk = hmac(salt, ikm);
  const cek = hmac(prk, Buffer.from("Content-Encoding: aes128gcm\0\x01")).subarray(0, 16);
  const nonce = hmac(prk, Buffer.from("Content-Encoding: nonce\0\x01")).subarray(0, 12);
  const decipher = createDecipheriv("aes-128-gcm", cek, nonce);
  decipher.setAuthTag(ciphertext.subarray(ciphertext.length - 16));
  const padded = Buffer.concat([
    decipher.update(ciphertext.subarray(0, ciphertext.length - 16)),
    decipher.final(),
  ]);
  // The last record: the text, a 2 delimiter, then zero padding.
  let end = padded.length - 1;
  while (end >= 0 && padded[end] === 0) end--;
  expect(padded[end]).toBe(2);
  return padded.subarray(0, end).toString("utf8");
}

/** Checks the VAPID Authorization (RFC 8292) against the site's public key; returns the JWT's claims. */
function checkVapid(request: Received, publicKey: string, audience: string) {
  const authorization = String(request.headers.authorization ?? "");
  const match = /^vapid t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/.exec(authorization);
  expect(match, authorization).not.toBeNull();
  const [, jwt = "", k] = match as RegExpExecArray;
  expect(k).toBe(publicKey);
  const [head = "", claims = "", signature = ""] = jwt.split(".");
  expect(JSON.parse(Buffer.from(head, "base64url").toString())).toEqual({ typ: "JWT", alg: "ES256" });
  const point = Buffer.from(publicKey, "base64url");
  const key = createPublicKey({
    key: {
      kty: "EC",
      crv: "P-256",
      x: point.subarray(1, 33).toString("base64url"),
      y: point.subarray(33, 65).toString("base64url"),
    },
    format: "jwk",
  });
  const valid = verify(
    "sha256",
    Buffer.from(`${head}.${claims}`),
    { key, dsaEncoding: "ieee-p1363" },
    Buffer.from(signature, "base64url"),
  );
  expect(valid).toBe(true);
  const payload = JSON.parse(Buffer.from(claims, "base64url").toString());
  expect(payload.aud).toBe(audience);
  expect(payload.sub).toBe(SUBJECT);
  const now = Math.floor(Date.now() / 1000);
  expect(payload.exp).toBeGreaterThan(now);
  expect(payload.exp).toBeLessThanOrEqual(now + 24 * 3600);
  return payload;
}

function decode(html: string): string {
  return html
    .replaceAll("&#x27;", "'")
    .replaceAll("&#39;", "'")
    .replaceAll("&quot;", '"')
    .replaceAll("&lt;", "<")
    .replaceAll("&gt;", ">")
    .replaceAll("&amp;", "&");
}

/** The quote of the day as the language's home shows it: its title and address. */
async function quoteOfTheDay(server: RunningServer, language: string) {
  const html = await (await fetch(`${server.url}/${language}/home`)).text();
  const link = /<a[^>]*class="daily-link"[^>]*>/.exec(html)?.[0] ?? "";
  const href = /href="([^"]+)"/.exec(link)?.[1];
  const title = /class="daily-title">([^<]*)</.exec(html)?.[1];
  expect(href).toBeTruthy();
  return { href: decode(href ?? ""), title: decode(title ?? "") };
}

function pushDb(server: RunningServer) {
  return new Database(server.dbPath.replace(/\.db$/, "-push.db"), { readonly: true });
}

function endpointsStored(server: RunningServer): string[] {
  const db = pushDb(server);
  try {
    return db.prepare("SELECT endpoint FROM push_subscriptions ORDER BY id").pluck().all() as string[];
  } finally {
    db.close();
  }
}

describe("sending on SQLite", () => {
  const service = new PushService();
  const other = new PushService();
  let server: RunningServer;
  let env: Record<string, string>;
  let publicKey: string;
  let firstEnglish: Subscriber | null = null;

  beforeAll(async () => {
    await service.start();
    await other.start();
    const port = await freePort();
    env = {
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      VAPID_SUBJECT: SUBJECT,
      PUSH_ENDPOINT_HOSTS: `127.0.0.1:${service.port},127.0.0.1:${other.port}`,
      PUSH_REQUESTS_PER_MINUTE: "1000",
      PUSH_SUBSCRIPTIONS_PER_ADDRESS: "1000",
      LOG_LEVEL: "error",
    };
    // The CLI sends here; the server's own scheduler is off.
    server = await startServer({ port, env: { ...env, PUSH_SENDER: "off" } });
    env.DATABASE_URL = `file:${server.dbPath}`;
    publicKey = await (await fetch(`${server.url}/push/public-key`)).text();
  });

  afterAll(async () => {
    await server?.stop();
    await service.stop();
    await other.stop();
  });

  test("sukti push send: a VAPID-signed, aes128gcm message with the quote of the day, to the subscriber's language only", async () => {
    const english = subscriber(`http://127.0.0.1:${service.port}/english/1`);
    firstEnglish = english;
    const hindi = subscriber(`http://127.0.0.1:${service.port}/hindi/1`);
    await subscribe(server, english, "english");
    await subscribe(server, hindi, "hindi");
    const result = await runSukti(["push", "send", "--language", "english"], env);
    expect(result.stderr).toBe("");
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/sent 1, removed 0 \(gone\), retried 0, failed 0/);
    expect(service.to("/hindi/1")).toHaveLength(0);
    const [request] = service.to("/english/1");
    expect(request).toBeDefined();
    const message = request as Received;
    checkVapid(message, publicKey, `http://127.0.0.1:${service.port}`);
    expect(message.headers["content-encoding"]).toBe("aes128gcm");
    expect(message.headers.urgency).toBe("normal");
    expect(Number(message.headers.ttl)).toBeGreaterThan(0);
    const payload = JSON.parse(decrypt(english, message.body));
    const daily = await quoteOfTheDay(server, "english");
    expect(payload.title).toBe(daily.title);
    expect(payload.url).toBe(`${env.PUBLIC_URL}${daily.href}`);
    expect(payload.lang).toBe("en");
    expect(typeof payload.body).toBe("string");
    expect(payload.body.length).toBeGreaterThan(0);
    expect(payload.tag).toBe("sukti-daily-english");
    // The address it opens is the post's page.
    expect((await fetch(payload.url)).status).toBe(200);

    // Every language: the Hindi subscriber gets the Hindi quote, in Hindi.
    const all = await runSukti(["push", "send"], env);
    expect(all.status).toBe(0);
    const hindiPayload = JSON.parse(decrypt(hindi, (service.to("/hindi/1")[0] as Received).body));
    expect(hindiPayload.title).toBe((await quoteOfTheDay(server, "hindi")).title);
    expect(hindiPayload.lang).toBe("hi");
    const stats = await runSukti(["push", "stats"], env);
    expect(stats.stdout).toMatch(/english: 1 \(07:00 1\)/);
    expect(stats.stdout).toMatch(/hindi: 1 \(07:00 1\)/);
    expect(stats.stdout).toMatch(/last send: run \d+ \(sukti push send, .*done\): sent 2/);
  });

  test("a 410 removes the subscription; a 429 with Retry-After is retried after it; a redirect is not followed", async () => {
    const gone = subscriber(`http://127.0.0.1:${service.port}/gone/1`);
    const busy = subscriber(`http://127.0.0.1:${service.port}/busy/1`);
    const moved = subscriber(`http://127.0.0.1:${service.port}/moved/1`);
    for (const who of [gone, busy, moved]) await subscribe(server, who, "marathi");
    service.answer = (request, res) => {
      if (request.path === "/gone/1") return res.writeHead(410).end();
      if (request.path === "/busy/1" && service.to("/busy/1").length === 1)
        return res.writeHead(429, { "Retry-After": "2" }).end();
      if (request.path === "/moved/1")
        return res.writeHead(307, { Location: `http://127.0.0.1:${other.port}/stolen` }).end();
      res.writeHead(201).end();
    };
    try {
      const result = await runSukti(["push", "send", "--language", "marathi"], env);
      expect(result.status).toBe(0);
      expect(result.stdout).toMatch(/sent 1, removed 1 \(gone\), retried 1, failed 1/);
    } finally {
      service.answer = (_request, res) => res.writeHead(201).end();
    }
    expect(endpointsStored(server)).not.toContain(gone.endpoint);
    expect(endpointsStored(server)).toContain(busy.endpoint);
    const tries = service.to("/busy/1");
    expect(tries).toHaveLength(2);
    expect((tries[1] as Received).at - (tries[0] as Received).at).toBeGreaterThanOrEqual(1900);
    JSON.parse(decrypt(busy, (tries[1] as Received).body));
    expect(service.to("/moved/1")).toHaveLength(1);
    expect(other.received).toHaveLength(0);
    for (const who of [busy, moved]) {
      await fetch(`${server.url}/push/subscriptions`, {
        method: "DELETE",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ endpoint: who.endpoint }),
      });
    }
  });

  test("a send killed midway, run again, sends the rest: every subscriber's message once", async () => {
    const crowd = Array.from({ length: 5 }, (_, i) =>
      subscriber(`http://127.0.0.1:${service.port}/crash/${i + 1}`),
    );
    for (const who of crowd) await subscribe(server, who, "english", 20, "Europe/Paris");
    let child: ChildProcess | null = null;
    const killed = new Promise<void>((resolve) => {
      service.answer = (request, res) => {
        // The third message arrives: the sender dies before it hears the answer.
        if (
          request.path.startsWith("/crash/") &&
          service.received.filter((r) => r.path.startsWith("/crash/")).length === 3
        ) {
          child?.once("exit", () => {
            res.destroy();
            resolve();
          });
          child?.kill("SIGKILL");
          return;
        }
        res.writeHead(201).end();
      };
    });
    try {
      child = spawn(process.execPath, ["bin/sukti.js", "push", "send", "--language", "english"], {
        cwd: root,
        env: { ...process.env, ...env, PUSH_CONCURRENCY: "1" },
        stdio: "ignore",
      });
      await killed;
    } finally {
      service.answer = (_request, res) => res.writeHead(201).end();
    }
    expect(service.received.filter((r) => r.path.startsWith("/crash/"))).toHaveLength(3);
    const again = await runSukti(["push", "send", "--language", "english"], env);
    expect(again.status).toBe(0);
    expect(again.stdout).toMatch(/^finished an interrupted send: /);
    for (const who of crowd) {
      const messages = service.to(new URL(who.endpoint).pathname);
      expect(messages, who.endpoint).toHaveLength(1);
      expect(JSON.parse(decrypt(who, (messages[0] as Received).body)).lang).toBe("en");
    }
    // The first test's English subscriber: its two earlier messages, and this run's once.
    expect(service.to("/english/1").length).toBe(3);
  });

  test("without PUBLIC_URL sending is refused with one line", async () => {
    const result = await runSukti(["push", "send"], { ...env, PUBLIC_URL: "" });
    expect(result.status).toBe(1);
    expect(result.stderr.trim().split("\n")).toHaveLength(1);
    expect(result.stderr).toMatch(/PUBLIC_URL/);
  });

  test("the endpoint is checked again at send time: one no longer allowed is never contacted", async () => {
    const stored = subscriber(`http://127.0.0.1:${service.port}/recheck/1`);
    await subscribe(server, stored, "hindi");
    const hindiBefore = service.to("/hindi/1").length;
    // The operator took the test push service off the list since.
    const result = await runSukti(["push", "send", "--language", "hindi"], {
      ...env,
      PUSH_ENDPOINT_HOSTS: `127.0.0.1:${other.port}`,
    });
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/sent 0, removed 0 \(gone\), retried 0, failed 2/);
    expect(service.to("/recheck/1")).toHaveLength(0);
    expect(service.to("/hindi/1")).toHaveLength(hindiBefore);
    expect(other.received).toHaveLength(0);
  });

  test("an unpublished quote of the day is never sent: the day's quote among the published is", async () => {
    const before = await quoteOfTheDay(server, "english");
    const slug = decodeURIComponent(before.href.split("/").pop() ?? "");
    const unpublished = await runSukti(["unpublish", "english", slug], env);
    expect(unpublished.status, unpublished.stderr).toBe(0);
    const sentBefore = service.to("/english/1").length;
    const result = await runSukti(["push", "send", "--language", "english"], env);
    expect(result.status).toBe(0);
    const messages = service.to("/english/1");
    expect(messages).toHaveLength(sentBefore + 1);
    const english = firstEnglish as Subscriber;
    const payload = JSON.parse(decrypt(english, (messages.at(-1) as Received).body));
    expect(payload.url).not.toContain(before.href);
    expect(payload.title).not.toBe(before.title);
    const after = await quoteOfTheDay(server, "english");
    expect(payload.url).toBe(`${env.PUBLIC_URL}${after.href}`);
  });
});

/** The hour now in `timeZone`, once the hour has at least 15 s left (a subscription then falls in it). */
async function hourNow(timeZone: string): Promise<number> {
  const format = new Intl.DateTimeFormat("en-GB", {
    timeZone,
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
    hourCycle: "h23",
  });
  for (;;) {
    const parts = Object.fromEntries(format.formatToParts(new Date()).map((part) => [part.type, part.value]));
    if (Number(parts.minute) < 59 || Number(parts.second) < 45) return Number(parts.hour);
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}

async function waitForMessage(service: PushService, pathname: string) {
  const deadline = Date.now() + READY_MS;
  while (service.to(pathname).length === 0) {
    expect(Date.now(), `nothing sent to ${pathname}`).toBeLessThan(deadline);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe("the scheduler on SQLite", () => {
  const service = new PushService();
  beforeAll(() => service.start());
  afterAll(() => service.stop());

  test("a cluster of two workers sends a subscriber at their hour in their zone once, and not again after a restart", async () => {
    const port = await freePort();
    const env = {
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      VAPID_SUBJECT: SUBJECT,
      PUSH_ENDPOINT_HOSTS: `127.0.0.1:${service.port}`,
      PUSH_TICK_MS: "300",
      WEB_CONCURRENCY: "2",
      LOG_LEVEL: "error",
    };
    // The site's files in a folder of the test's, kept across the restart.
    const dir = mkdtempSync(path.join(tmpdir(), "sukti-push-"));
    const dbPath = path.join(dir, "sukti.db");
    let server = await startServer({ port, env, dbPath });
    try {
      const hour = await hourNow("Asia/Kolkata");
      const now = subscriber(`http://127.0.0.1:${service.port}/kolkata/now`);
      const later = subscriber(`http://127.0.0.1:${service.port}/kolkata/later`);
      await subscribe(server, now, "marathi", hour, "Asia/Kolkata");
      await subscribe(server, later, "marathi", (hour + 12) % 24, "Asia/Kolkata");
      await waitForMessage(service, "/kolkata/now");
      const payload = JSON.parse(decrypt(now, (service.to("/kolkata/now")[0] as Received).body));
      expect(payload.lang).toBe("mr");
      expect(payload.title).toBe((await quoteOfTheDay(server, "marathi")).title);
      // Stopped and started again on the same files: today's message is not sent again.
      await server.stop();
      server = await startServer({ port, env, dbPath });
      // A third subscriber at this hour, after the restart: sent, so the restarted sender has ticked.
      const after = subscriber(`http://127.0.0.1:${service.port}/kolkata/after`);
      await subscribe(server, after, "english", hour, "Asia/Kolkata");
      await waitForMessage(service, "/kolkata/after");
      await new Promise((resolve) => setTimeout(resolve, 1500));
      expect(service.to("/kolkata/now")).toHaveLength(1);
      expect(service.to("/kolkata/after")).toHaveLength(1);
      expect(service.to("/kolkata/later")).toHaveLength(0);
    } finally {
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("a push service that does not answer never delays pages (one process sends and serves)", async () => {
    const port = await freePort();
    const server = await startServer({
      port,
      env: {
        PUBLIC_URL: `http://127.0.0.1:${port}`,
        VAPID_SUBJECT: SUBJECT,
        PUSH_ENDPOINT_HOSTS: `127.0.0.1:${service.port}`,
        PUSH_TICK_MS: "300",
        LOG_LEVEL: "error",
      },
    });
    const held: http.ServerResponse[] = [];
    service.answer = (_request, res) => void held.push(res);
    try {
      const slow = subscriber(`http://127.0.0.1:${service.port}/slow/1`);
      await subscribe(server, slow, "english", await hourNow("UTC"), "UTC");
      await waitForMessage(service, "/slow/1");
      // The send is in flight, its push service silent: pages and the health check still answer.
      for (const page of ["/english/home", "/hindi/home", "/healthz", "/push/public-key"])
        expect((await fetch(`${server.url}${page}`)).status, page).toBe(200);
      expect(held).toHaveLength(1);
    } finally {
      service.answer = (_request, res) => res.writeHead(201).end();
      for (const res of held) res.writeHead(201).end();
      await server.stop();
    }
  });
});

describe.skipIf(!postgresAvailable())("two servers on one PostgreSQL", () => {
  const service = new PushService();
  let postgres: TestPostgres;

  beforeAll(async () => {
    postgres = await sharedPostgres();
    await service.start();
  });
  afterAll(async () => {
    await service.stop();
    await postgres?.stop();
  });

  test("a subscriber at this hour gets the quote once, whichever node sends", async () => {
    const url = await postgres.createDatabase("push_nodes");
    const env = {
      DATABASE_URL: url,
      PUBLIC_URL: "https://quotes.example",
      VAPID_SUBJECT: SUBJECT,
      PUSH_ENDPOINT_HOSTS: `127.0.0.1:${service.port}`,
      PUSH_TICK_MS: "300",
      LOG_LEVEL: "error",
    };
    const one = await startServer({ env });
    const two = await startServer({ env: { ...env, WEB_CONCURRENCY: "2" } });
    try {
      // The hour in UTC now; a subscription made in an hour's last seconds waits for the next.
      for (;;) {
        const now = new Date();
        if (now.getUTCMinutes() < 59 || now.getUTCSeconds() < 45) break;
        await new Promise((resolve) => setTimeout(resolve, 1000));
      }
      const hour = new Date().getUTCHours();
      const first = subscriber(`http://127.0.0.1:${service.port}/node/1`);
      await subscribe(one, first, "english", hour, "UTC");
      const waitFor = async (pathname: string) => {
        const deadline = Date.now() + READY_MS;
        while (service.to(pathname).length === 0) {
          expect(Date.now(), `nothing sent to ${pathname}`).toBeLessThan(deadline);
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
      };
      await waitFor("/node/1");
      // Another subscriber, through the other node, later: both senders have ticked again since.
      const second = subscriber(`http://127.0.0.1:${service.port}/node/2`);
      await subscribe(two, second, "hindi", hour, "UTC");
      await waitFor("/node/2");
      await new Promise((resolve) => setTimeout(resolve, 2000));
      expect(service.to("/node/1")).toHaveLength(1);
      expect(service.to("/node/2")).toHaveLength(1);
      const payload = JSON.parse(decrypt(first, (service.to("/node/1")[0] as Received).body));
      expect(payload.url).toMatch(/^https:\/\/quotes\.example\/english\//);
      expect(JSON.parse(decrypt(second, (service.to("/node/2")[0] as Received).body)).lang).toBe("hi");
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        const { rows } = await client.query("SELECT slot, state FROM push_sends ORDER BY subscription_id");
        const day = new Date().toISOString().slice(0, 10);
        expect(rows).toEqual([
          { slot: `day:${day}`, state: "sent" },
          { slot: `day:${day}`, state: "sent" },
        ]);
      } finally {
        await client.end();
      }
    } finally {
      await Promise.all([one.stop(), two.stop()]);
    }
  });
});
