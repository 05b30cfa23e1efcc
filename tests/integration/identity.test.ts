// The site's identity at run time (decision 055): a server
// started with a SITE_CONFIG file (TOML or JSON) shows it on its pages; a bad
// file stops start-up with one line; SIGHUP with a changed file changes every
// page, cached ones too, and a bad file on SIGHUP keeps the running identity.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { get } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { type HTMLElement, parse } from "node-html-parser";
import { afterAll, expect, test, vi } from "vitest";
import { postDateTime } from "#app/content/dates.ts";
import { demoSite } from "#app/site.config.ts";
import { runSukti } from "#tests/support/cli.ts";
import { getHtml, hrefs } from "#tests/support/html.ts";
import { READY_MS } from "#tests/support/limits.ts";
import { type RunningServer, startServer } from "#tests/support/server.ts";

// Servers started and signalled: generous on a busy machine.
vi.setConfig({ testTimeout: 180_000, hookTimeout: 60_000 });

const dir = mkdtempSync(path.join(tmpdir(), "sukti-identity-"));
const running: RunningServer[] = [];
afterAll(async () => {
  await Promise.all(running.map((server) => server.stop()));
  rmSync(dir, { recursive: true, force: true });
});

async function serve(env: Record<string, string>) {
  const server = await startServer({ env });
  running.push(server);
  return server;
}

function file(name: string, text: string): string {
  const at = path.join(dir, name);
  writeFileSync(at, text);
  return at;
}

const VANI_TOML = `
name = "Vani"
tagline = "Words worth keeping"
copyrightHolder = "Vani Trust"
timeZone = "America/Los_Angeles"

[colours]
theme = "#123456"
themeDark = "#0a0a0a"
background = "#fefefe"

[[social]]
network = "Mastodon"
url = "https://mastodon.example/@vani"

[[social]]
network = "YouTube"
url = "https://www.youtube.com/@vani"

[contact]
url = "mailto:editor@vani.example"
label = { hindi = "हमें लिखें" }
`;

/**
 * A page on a connection of its own: with several workers, the primary hands
 * each new connection to the next one, so a few rounds ask every worker.
 */
function getFresh(url: string): Promise<{ doc: HTMLElement; cache: string | undefined }> {
  return new Promise((resolve, reject) => {
    get(url, { agent: false }, (response) => {
      let text = "";
      response.setEncoding("utf8");
      response.on("data", (chunk) => (text += chunk));
      response.on("end", () =>
        resolve({
          doc: parse(text) as HTMLElement,
          cache: response.headers["x-cache"] as string | undefined,
        }),
      );
      response.on("error", reject);
    }).on("error", reject);
  });
}

/** What a page shows of the identity. */
async function identityOn(url: string) {
  const { doc, cache } = await getFresh(url);
  const ld = doc.querySelector('script[type="application/ld+json"]');
  return {
    cache,
    name: doc.querySelector(".site-name")?.text ?? "",
    title: doc.querySelector("title")?.text ?? "",
    siteName: doc.querySelector('meta[property="og:site_name"]')?.getAttribute("content") ?? "",
    ogImage: doc.querySelector('meta[property="og:image"]')?.getAttribute("content") ?? "",
    social: hrefs(doc, ".social-links a"),
    footer: doc.querySelector(".site-footer p")?.text ?? "",
    contact: doc.querySelector(".site-footer a.contact-link"),
    time: doc.querySelector("time"),
    publisher: ld ? (JSON.parse(ld.text) as { publisher?: { name?: string } }).publisher?.name : undefined,
    feeds: doc
      .querySelectorAll('link[rel="alternate"][type="application/rss+xml"]')
      .map((link) => link.getAttribute("title")),
    themeColour: doc.querySelector('meta[name="theme-color"]')?.getAttribute("content"),
  };
}

/** The newest post's address (the home's hero). */
async function newestPost(url: string): Promise<string> {
  const { doc } = await getHtml(`${url}/`);
  const href = doc.querySelector(".hero-link")?.getAttribute("href");
  if (!href) throw new Error("no hero on the home page");
  return href;
}

/** Polls until `check` passes (a signal is handled a moment after it is sent). */
async function eventually(check: () => Promise<void>, timeoutMs = READY_MS) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await check();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

test("a server started with a TOML file shows its name, links, contact link and time zone", async () => {
  const server = await serve({ SITE_CONFIG: file("vani.toml", VANI_TOML) });
  const home = await identityOn(`${server.url}/`);
  expect(home.name).toBe("Vani");
  expect(home.title).toBe("Vani · Words worth keeping");
  expect(home.social).toEqual(["https://mastodon.example/@vani", "https://www.youtube.com/@vani"]);
  expect(home.footer).toMatch(/^© \d{4} Vani Trust$/);
  expect(home.contact?.getAttribute("href")).toBe("mailto:editor@vani.example");
  expect(home.contact?.text).toBe("Contact us");
  expect(home.feeds).toEqual(["Vani · English", "Vani · हिंदी", "Vani · मराठी"]);
  expect(home.themeColour).toBe("#123456");
  // The hero's date, in the file's time zone, not the demo's.
  const iso = home.time?.getAttribute("datetime") ?? "";
  const postTime = Date.parse(iso) / 1000;
  expect(home.time?.text).toBe(postDateTime(postTime, "America/Los_Angeles"));
  expect(home.time?.text).not.toBe(postDateTime(postTime, demoSite.timeZone));
  // The about box left out of the file: the demo's.
  const { doc } = await getHtml(`${server.url}/`);
  expect(doc.querySelector(".about p")?.text).toBe(demoSite.about.teaser);

  // The contact link speaks the page's language: the file's Hindi label, Marathi's own.
  expect((await identityOn(`${server.url}/hindi/home`)).contact?.text).toBe("हमें लिखें");
  expect((await identityOn(`${server.url}/marathi/home`)).contact?.text).toBe("संपर्क साधा");

  // The terms page (it asks readers to let the site know) has the contact link in its frame.
  const terms = await identityOn(`${server.url}/post/terms-conditions`);
  expect(terms.title).toMatch(/ · Vani$/);
  expect(terms.contact?.getAttribute("href")).toBe("mailto:editor@vani.example");
  // A post: its title, og:site_name and JSON-LD publisher.
  const post = await identityOn(`${server.url}${await newestPost(server.url)}`);
  expect(post.title).toMatch(/ · Vani$/);
  expect(post.siteName).toBe("Vani");
  expect(post.publisher).toBe("Vani");

  const manifest = (await (await fetch(`${server.url}/manifest.webmanifest`)).json()) as Record<
    string,
    string
  >;
  expect(manifest.short_name).toBe("Vani");
  expect(manifest.theme_color).toBe("#123456");
  expect(manifest.background_color).toBe("#fefefe");
  const feed = await (await fetch(`${server.url}/english/feed.xml`)).text();
  expect(feed).toContain("<title>Vani · English</title>");
});

test("a JSON file works alike; without SITE_CONFIG the demo's identity, and no contact link", async () => {
  const server = await serve({
    SITE_CONFIG: file(
      "site.json",
      JSON.stringify({ name: "Sukti Pune", contact: { url: "https://pune.example/contact" } }),
    ),
  });
  const page = await identityOn(`${server.url}/english/home`);
  expect(page.name).toBe("Sukti Pune");
  expect(page.contact?.getAttribute("href")).toBe("https://pune.example/contact");
  expect(page.social).toEqual(demoSite.social.map((link) => link.url));

  const demo = await serve({});
  const plain = await identityOn(`${demo.url}/english/home`);
  expect(plain.name).toBe(demoSite.name);
  expect(plain.contact).toBeNull();
});

test("a bad file stops start-up with one line naming the key, one process or several", async () => {
  const bad = file(
    "bad.toml",
    '[[social]]\nnetwork = "X"\nurl = "https://x.com/"\n[[social]]\nnetwork = "Y"\nurl = "x.com/y"\n',
  );
  for (const workers of ["1", "2"]) {
    const failed = await startServer({ env: { SITE_CONFIG: bad, WEB_CONCURRENCY: workers } }).then(
      (server) => {
        running.push(server);
        return null;
      },
      (error: Error) => error.message,
    );
    expect(failed, workers).not.toBeNull();
    const [first, ...output] = (failed ?? "").split("\n");
    expect(first, workers).toBe("server exited with 1:");
    expect(
      output.filter((line) => line.trim() !== ""),
      workers,
    ).toEqual([`sukti: SITE_CONFIG ${bad}: social[1].url: must be an https:// or http:// URL`]);
  }
  // `sukti import` reads WordPress's local dates in the site's time zone: the same file, the same line.
  const imported = await runSukti(
    ["import", path.resolve(import.meta.dirname, "../../examples/wordpress-export.xml")],
    {
      SITE_CONFIG: bad,
      DATABASE_URL: `file:${path.join(dir, "cli.db")}`,
    },
  );
  expect(imported.status).toBe(1);
  expect(imported.stderr).toBe(
    `sukti: SITE_CONFIG ${bad}: social[1].url: must be an https:// or http:// URL\n`,
  );
  const typo = file("typo.json", JSON.stringify({ nmae: "Vani" }));
  await expect(startServer({ env: { SITE_CONFIG: typo } })).rejects.toThrow(
    `sukti: SITE_CONFIG ${typo}: nmae: unknown key`,
  );
});

for (const workers of ["1", "2"]) {
  test(`SIGHUP with a changed file changes every page, cached ones too; a bad file keeps the running identity (${workers} process${workers === "1" ? "" : "es"})`, async () => {
    const config = file(`reload-${workers}.toml`, 'name = "Before"\n');
    const server = await serve({ SITE_CONFIG: config, WEB_CONCURRENCY: workers, LOG_LEVEL: "info" });
    const post = await newestPost(server.url);
    // A search too: rendered in the search thread, kept in the search cache.
    const pages = ["/", "/english/home", "/post/terms-conditions", "/tags", post, "/search/love"];
    // Asked a few times (each worker too): kept in the page caches.
    for (let i = 0; i < 4; i++) for (const page of pages) await identityOn(`${server.url}${page}`);
    const before = await identityOn(`${server.url}${post}`);
    expect(before.cache).toBe("HIT");
    expect(before.name).toBe("Before");

    writeFileSync(
      config,
      'name = "After"\ntimeZone = "Pacific/Auckland"\n[contact]\nurl = "https://after.example/write"\n',
    );
    server.child.kill("SIGHUP");
    await eventually(async () => {
      // Several rounds: every worker has it.
      for (let i = 0; i < 4; i++) {
        for (const page of pages) {
          const seen = await identityOn(`${server.url}${page}`);
          expect(seen.name, page).toBe("After");
          expect(seen.title, page).toMatch(/After/);
          expect(seen.contact?.getAttribute("href"), page).toBe("https://after.example/write");
        }
      }
    });
    const after = await identityOn(`${server.url}${post}`);
    expect(after.siteName).toBe("After");
    // The share image draws the name: its address changed with it, and the new one is served.
    expect(after.ogImage).toMatch(/\/share\/.+\.jpg$/);
    expect(after.ogImage).not.toBe(before.ogImage);
    const image = await fetch(`${server.url}${new URL(after.ogImage).pathname}`, { redirect: "manual" });
    expect(image.status).toBe(200);
    expect(image.headers.get("content-type")).toBe("image/jpeg");
    const hero = await identityOn(`${server.url}/`);
    const postTime = Date.parse(hero.time?.getAttribute("datetime") ?? "") / 1000;
    expect(hero.time?.text).toBe(postDateTime(postTime, "Pacific/Auckland"));

    // A bad file: one line in the log, the identity running stays, the site stays up.
    writeFileSync(config, 'name = "After"\ntimeZone = "Mars/Olympus"\n');
    const logged = server.output().length;
    server.child.kill("SIGHUP");
    await eventually(async () => {
      expect(server.output().slice(logged)).toContain("site identity not reloaded");
    });
    const lines = server
      .output()
      .slice(logged)
      .split("\n")
      .filter((line) => line.includes("site identity"));
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0] ?? "{}")).toMatchObject({
      level: "error",
      reason: `SITE_CONFIG ${config}: timeZone: must be an IANA time zone such as Asia/Kolkata`,
    });
    for (let i = 0; i < 4; i++) {
      for (const page of pages) {
        const seen = await identityOn(`${server.url}${page}`);
        expect(seen.name, page).toBe("After");
      }
    }
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    expect(server.child.exitCode).toBeNull();
  });
}
