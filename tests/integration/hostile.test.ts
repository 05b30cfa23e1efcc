import { afterAll, beforeAll, expect, test } from "vitest";
import { seededRandom } from "#app/content/sampling.ts";
import { openReadonly } from "#tests/support/db.ts";
import { rawRequest } from "#tests/support/raw-http.ts";
import { type RunningServer, startServer } from "#tests/support/server.ts";

let server: RunningServer;
let port: number;

beforeAll(async () => {
  server = await startServer();
  port = Number(new URL(server.url).port);
});
afterAll(async () => {
  await server?.stop();
});

const random = seededRandom(1234);
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
const int = (max: number) => Math.floor(random() * max);

const NASTY = [
  '"',
  "'",
  "*",
  "AND",
  "OR",
  "NOT",
  "NEAR",
  "(",
  ")",
  "-",
  ":",
  "^",
  "\\",
  "%",
  "_",
  "' OR 1=1 --",
  "'; DROP TABLE posts; --",
  "<script>alert(1)</script>",
  "\u202e",
  "\u200f",
  "\u0000",
  "\u0007",
  "🙏",
  "👨‍👩‍👧",
  "प्रेम",
  "ज़िंदगी",
  "शान्ति",
  "ॐ",
  "\ud800",
  "../",
  "..\\",
  "%00",
  "{{7*7}}",
  `$${"{"}7*7}`,
  "NEAR(a b)",
  "a*",
];

function randomText(): string {
  const parts: string[] = [];
  for (let i = 0, n = 1 + int(6); i < n; i++) {
    const kind = int(4);
    if (kind === 0) parts.push(pick(NASTY));
    else if (kind === 1) parts.push(String.fromCodePoint(int(0x2ffff)));
    else if (kind === 2)
      parts.push(
        Math.random()
          .toString(36)
          .slice(2, 2 + int(8)),
      );
    else parts.push(String.fromCharCode(int(0x7f)));
  }
  return parts.join(pick(["", " ", "+", "/"]));
}

const percent = (bytes: number[]) => bytes.map((b) => `%${b.toString(16).padStart(2, "0")}`).join("");

function hostilePath(): Buffer | string {
  switch (int(12)) {
    case 0:
      return `/search/${encodeURIComponent(randomText().replace(/[\ud800-\udfff]/g, ""))}`;
    case 1:
      return `/search/${percent(Array.from({ length: 1 + int(12) }, () => int(256)))}`;
    case 2:
      return `/${pick(["english", "hindi", "marathi", "post", "tag", "category"])}/${percent(Array.from({ length: 1 + int(10) }, () => int(256)))}`;
    case 3:
      return `/search/${"a".repeat(2000 + int(12_000))}`;
    case 4:
      return pick([
        "/../../../../etc/passwd",
        "/assets/../../package.json",
        "/images/..%2f..%2fpackage.json",
        "/%2e%2e/%2e%2e/etc/passwd",
        "/%252e%252e%252fetc%252fpasswd",
        "/assets/%2e%2e%2f%2e%2e%2fserver.js",
        "/..%5c..%5cwindows%5cwin.ini",
        "/english/%252e%252e",
        "//etc/passwd",
        "/images/../../db/demo/demo-content.json",
      ]);
    case 5:
      return Buffer.concat([
        Buffer.from("/search/"),
        Buffer.from(Array.from({ length: 1 + int(20) }, () => 0x80 + int(0x80))),
      ]);
    case 6:
      return `/${pick(["english", "hindi", "tag", "search/x"])}/home?page=${pick(["-1", "0", "1e9", "999999999999", "NaN", "%00", "2&page=3", ""])}`;
    case 7:
      return `/search?q=${encodeURIComponent(randomText().replace(/[\ud800-\udfff]/g, ""))}`;
    case 8:
      return `/${encodeURIComponent(randomText().replace(/[\ud800-\udfff]/g, ""))}`;
    case 9:
      return `/search/${encodeURIComponent(encodeURIComponent(randomText().replace(/[\ud800-\udfff]/g, "")))}`;
    case 10:
      return `/tag/${percent([0xe0, 0xa4])}?${"x=".repeat(int(500))}`;
    default:
      return pick([
        "/",
        "/english/home",
        "/tags",
        "/hindi/home",
        "/healthz",
        "/favicon.ico",
        "/post/privacy-policy",
      ]);
  }
}

function hostileRequest(): Buffer {
  const method = pick([
    "GET",
    "GET",
    "GET",
    "HEAD",
    "POST",
    "PUT",
    "DELETE",
    "OPTIONS",
    "TRACE",
    "PROPFIND",
    "FOO",
    "get",
  ]);
  const target = hostilePath();
  const headers = [
    `Host: ${pick(["127.0.0.1", "evil.example", "", "a".repeat(300), "localhost:1"])}`,
    pick([
      "",
      "Accept-Encoding: br, gzip, deflate",
      "Accept-Encoding: ☃",
      "If-None-Match: *",
      'If-None-Match: W/"x", "y"',
      "Range: bytes=0-10,5-1",
      `Cookie: ${"c=1; ".repeat(int(100))}`,
      "X-Forwarded-Proto: https",
      "X-Forwarded-For: 1.2.3.4, <script>",
      "Transfer-Encoding: chunked\r\nContent-Length: 5",
      "Content-Type: application/x-www-form-urlencoded",
    ]),
    "Connection: close",
  ].filter(Boolean);
  return Buffer.concat([
    Buffer.from(`${method} `),
    Buffer.from(target),
    Buffer.from(` HTTP/1.1\r\n${headers.join("\r\n")}\r\n\r\n`),
  ]);
}

test("1,000 hostile requests: no 5xx, nothing unpublished, no file outside the site, and still healthy", async () => {
  const db = openReadonly(server.dbPath);
  const hiddenTitles = db
    .prepare("SELECT title FROM posts WHERE status <> 'publish'")
    .pluck()
    .all() as string[];
  db.close();
  const requests = Array.from({ length: 1000 }, hostileRequest);
  const problems: string[] = [];
  const statuses = new Map<number, number>();
  for (let i = 0; i < requests.length; i += 25) {
    const batch = requests.slice(i, i + 25);
    const answers = await Promise.all(
      batch.map((request) => rawRequest(port, request).catch((error: Error) => error)),
    );
    answers.forEach((answer, j) => {
      const line = batch[j]!.toString("latin1").split("\r\n")[0]!.slice(0, 120);
      if (answer instanceof Error) {
        problems.push(`${line}: ${answer.message}`);
        return;
      }
      statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
      if (answer.status === 0 || answer.status >= 500) problems.push(`${line}: ${answer.status}`);
      const body = answer.body.toString("utf8");
      if (/root:x:0:0|"name":\s*"sukti"|\[fonts\]|startServer/.test(body))
        problems.push(`${line}: leaked a file`);
      for (const title of hiddenTitles) if (body.includes(title)) problems.push(`${line}: shows "${title}"`);
      if (/\n\s+at .+:\d+:\d+/.test(body)) problems.push(`${line}: stack trace`);
    });
  }
  expect(problems).toEqual([]);
  // Most were answered with a page, a 404, a 405 or a 400 — never silence.
  expect([...statuses.keys()].every((status) => status >= 200 && status < 500)).toBe(true);
  const health = await fetch(`${server.url}/healthz`);
  expect(health.status).toBe(200);
  expect((await fetch(`${server.url}/english/home`)).status).toBe(200);
});
