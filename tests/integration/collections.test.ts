// Decision 050: a shared collection (/c/{code}) renders on the server, without
// JavaScript, exactly the published posts it names, in its order, at most
// 100; unknown and unpublished posts are left out and not counted; a code
// that is not one is a 404, never a 500. And /saved's frame in each
// language. On SQLite and on PostgreSQL, each with content of its own.
import { writeFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type CollectionEntry, collectionPath, encodeCollection } from "#app/content/collection-code.ts";
import type { Language } from "#app/content/languages.ts";
import type { PostRecord } from "#app/content/schemas.ts";
import { runSukti } from "#tests/support/cli.ts";
import { getHtml, hrefs } from "#tests/support/html.ts";
import { postgresAvailable, sharedPostgres, type TestPostgres } from "#tests/support/postgres.ts";
import { postRecord } from "#tests/support/records.ts";
import { type RunningServer, startServer } from "#tests/support/server.ts";

const TITLE: Record<Language, string> = {
  english: "English quote",
  hindi: "हिंदी सूक्ति",
  marathi: "मराठी सुविचार",
};

function post(language: Language, idNum: number, status: PostRecord["status"] = "publish") {
  return postRecord({
    idNum,
    language,
    status,
    postTime: 1_700_000_000 + idNum * 60 + (language === "english" ? 0 : language === "hindi" ? 1 : 2),
    title: `${TITLE[language]} ${idNum}${status === "publish" ? "" : ` ${status}`}`,
    slug: `${language}-${idNum}`,
    content: `<p>${TITLE[language]} ${idNum}</p>`,
  });
}

const CONTENT = {
  posts: [
    ...Array.from({ length: 130 }, (_, i) => post("english", i + 1)),
    post("english", 131, "draft"),
    post("hindi", 1),
    post("hindi", 2),
    post("hindi", 3),
    post("hindi", 4, "draft"),
    post("marathi", 1),
    post("marathi", 2, "private"),
    post("marathi", 3, "trash"),
  ],
  pages: [],
};

const at = (language: Language, idNum: number): CollectionEntry => ({ language, idNum });
const cardHrefs = (doc: Awaited<ReturnType<typeof getHtml>>["doc"]) => hrefs(doc, ".post-card-link");

const available = postgresAvailable();
const stores = available ? (["sqlite", "postgres"] as const) : (["sqlite"] as const);

describe.each(stores)("shared collections on %s", (store) => {
  let dir = "";
  let pg: TestPostgres | undefined;
  let server: RunningServer | undefined;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "sukti-collections-"));
    if (store === "postgres") pg = await sharedPostgres();
    const databaseUrl = pg ? await pg.createDatabase("collections") : `file:${path.join(dir, "sukti.db")}`;
    const file = path.join(dir, "content.json");
    writeFileSync(file, JSON.stringify(CONTENT));
    const imported = await runSukti(["import", file], { DATABASE_URL: databaseUrl });
    expect(imported.status, imported.stderr).toBe(0);
    server = await startServer({ env: { DATABASE_URL: databaseUrl } });
  });

  afterAll(async () => {
    await server?.stop();
    await pg?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  test("shows exactly the published posts, in the collection's order, and counts only them", async () => {
    const entries = [
      at("hindi", 2),
      at("english", 5),
      at("hindi", 4), // draft
      at("marathi", 1),
      at("english", 999), // unknown
      at("marathi", 2), // private
      at("english", 131), // draft
      at("marathi", 3), // trash
      at("english", 3),
    ];
    const page = await getHtml(`${server!.url}${collectionPath(entries)}`);
    expect(page.status).toBe(200);
    expect(cardHrefs(page.doc)).toEqual([
      `/hindi/${encodeURIComponent("hindi-2")}`,
      "/english/english-5",
      "/marathi/marathi-1",
      "/english/english-3",
    ]);
    expect(page.doc.querySelector(".collection-page .count")?.text).toBe("4 quotes");
    expect(page.doc.querySelector("h1")?.text).toBe("Shared quotes");
    for (const hidden of ["draft", "private", "trash", "999"]) expect(page.text).not.toContain(`${hidden}</`);
    expect(page.text).not.toMatch(/hindi-4|english-131|marathi-2|marathi-3/);
    // Rendered on the server: no script is needed to see it, and the same address gives the same page.
    const again = await getHtml(`${server!.url}${collectionPath(entries)}`);
    expect(cardHrefs(again.doc)).toEqual(cardHrefs(page.doc));
  });

  test("a collection of one language speaks it; one of unpublished posts only is empty, not counted", async () => {
    const hindi = await getHtml(
      `${server!.url}${collectionPath([at("hindi", 3), at("hindi", 4), at("hindi", 1)])}`,
    );
    expect(hindi.status).toBe(200);
    expect(hindi.doc.querySelector("html")?.getAttribute("lang")).toBe("hi");
    expect(hindi.doc.querySelector("h1")?.text).toBe("साझा की गई सूक्तियाँ");
    expect(hindi.doc.querySelector(".count")?.text).toBe("2 सूक्तियाँ");
    expect(cardHrefs(hindi.doc)).toEqual(["hindi-3", "hindi-1"].map((slug) => `/hindi/${slug}`));

    const drafts = await getHtml(`${server!.url}${collectionPath([at("hindi", 4), at("english", 131)])}`);
    expect(drafts.status).toBe(200);
    expect(cardHrefs(drafts.doc)).toEqual([]);
    expect(drafts.doc.querySelector(".count")).toBeNull();
    expect(drafts.doc.querySelector(".empty")?.text).toBe(
      "None of the quotes in this list can be shown any more.",
    );
    expect(drafts.text).not.toMatch(/hindi-4|english-131|draft/);
  });

  test("holds 100 quotes at most; an address of 101 is not a collection", async () => {
    const hundred = Array.from({ length: 100 }, (_, i) => at("english", 130 - i));
    const address = collectionPath(hundred);
    // idNums under 5,461 take two bytes each at most: 200 bytes, 267 characters.
    expect(address.length).toBeLessThanOrEqual("/c/".length + 267);
    const page = await getHtml(`${server!.url}${address}`);
    expect(page.status).toBe(200);
    expect(cardHrefs(page.doc)).toEqual(hundred.map(({ idNum }) => `/english/english-${idNum}`));
    expect(page.doc.querySelector(".count")?.text).toBe("100 quotes");
    // The encoder keeps the first 100; an address written with a 101st pair is refused.
    expect(collectionPath([...hundred, at("english", 1)])).toBe(address);
    const tooMany = `${encodeCollection(hundred)}${encodeCollection([at("english", 1)])}`;
    expect((await fetch(`${server!.url}/c/${tooMany}`)).status).toBe(404);
  });

  test("garbage addresses answer 404 or 400, never 500; a capital C is led to the address", async () => {
    const code = encodeCollection([at("english", 1), at("hindi", 1)]);
    for (const bad of [
      "/c/!!!",
      "/c/%ZZ",
      "/c/%00",
      "/c/A",
      "/c/gAA",
      "/c/gA",
      "/c/AwM",
      `/c/${code}=`,
      `/c/${"_".repeat(5000)}`,
      `/c/${code}/more`,
      "/c/..%2F..%2Fetc%2Fpasswd",
      "/c/%F0%9F%99%8F",
      "/c/",
      "/c",
    ]) {
      const response = await fetch(`${server!.url}${bad}`, { redirect: "manual" });
      expect([400, 404], `${bad} → ${response.status}`).toContain(response.status);
      await response.body?.cancel();
    }
    const upper = await fetch(`${server!.url}/C/${code}`, { redirect: "manual" });
    expect(upper.status).toBe(301);
    expect(upper.headers.get("location")).toBe(`/c/${code}`);
  });

  test("/saved is a frame in each language for the browser to fill", async () => {
    for (const [address, lang, heading] of [
      ["/saved", "en", "Saved quotes"],
      ["/saved/hindi", "hi", "सहेजी गई सूक्तियाँ"],
      ["/saved/marathi", "mr", "जतन केलेले सुविचार"],
    ] as const) {
      const page = await getHtml(`${server!.url}${address}`);
      expect(page.status, address).toBe(200);
      expect(page.doc.querySelector("html")?.getAttribute("lang")).toBe(lang);
      expect(page.doc.querySelector("h1")?.text).toBe(heading);
      expect(page.doc.querySelector("noscript")?.text).toContain("JavaScript");
      expect(page.doc.querySelector('meta[name="robots"]')?.getAttribute("content")).toBe("noindex");
    }
    // Every page's footer leads to its language's.
    for (const [address, saved] of [
      ["/english/home", "/saved"],
      ["/hindi/home", "/saved/hindi"],
      ["/marathi/marathi-1", "/saved/marathi"],
      ["/marathi/no-such-post", "/saved/marathi"],
      ["/tags", "/saved"],
    ]) {
      expect(hrefs((await getHtml(`${server!.url}${address}`)).doc, ".site-footer a")[0], address).toBe(
        saved,
      );
    }
    const marathi = await getHtml(`${server!.url}/marathi/home`);
    expect(marathi.doc.querySelector('.site-footer a[href="/saved/marathi"]')?.text).toBe("जतन केलेले सुविचार");
    const english = await fetch(`${server!.url}/saved/english`, { redirect: "manual" });
    expect([english.status, english.headers.get("location")]).toEqual([301, "/saved"]);
    const upper = await fetch(`${server!.url}/SAVED/HINDI`, { redirect: "manual" });
    expect([upper.status, upper.headers.get("location")]).toEqual([301, "/saved/hindi"]);
    expect((await fetch(`${server!.url}/saved/klingon`)).status).toBe(404);
  });
});
