// The public read API (decision 062) against the built server
// on SQLite: every endpoint, the OpenAPI document valid by a real OpenAPI
// validator and every answer of this file checked against its schemas (ajv),
// ETag and 304, CORS and its preflight, drafts and unpublished posts never
// answered (imported and unpublished with the `sukti` command, as a site
// does), 400/404/405 in JSON, and on a second server PUBLIC_URL's addresses
// and the per-client limit (429 with Retry-After).
import { writeFileSync } from "node:fs";
import path from "node:path";
import { Validator } from "@seriousme/openapi-schema-validator";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { runSukti } from "#tests/support/cli.ts";
import { postRecord } from "#tests/support/records.ts";
import { type RunningServer, startServer } from "#tests/support/server.ts";

// ajv-formats is CommonJS: its function is the default export's default under Node's ESM.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ??
  addFormatsModule) as unknown as (ajv: Ajv2020) => void;

type Doc = {
  paths: Record<string, Record<string, { responses: Record<string, Ref & { content?: Content }> }>>;
  components: { responses: Record<string, { content?: Content }> };
};
type Ref = { $ref?: string };
type Content = Record<string, { schema?: Ref }>;

interface Answer {
  status: number;
  headers: Headers;
  text: string;
  json: unknown;
}

const DOC_ID = "https://sukti.test/openapi.json";
const DRAFT = "api-draft-only";
const PRIVATE = "निजी-उद्धरण";
const FAR = "api-far-away";
const PAIR = { english: "api-pair", hindi: "एपीआई-जोड़ा" };

/** The operation a path answers for, as the document names it. */
function templateOf(pathname: string): string | null {
  if (/^\/api\/v1\/posts\/[^/]+\/[^/]+$/.test(pathname)) return "/api/v1/posts/{language}/{slug}";
  return ["/api/v1/today", "/api/v1/random", "/api/v1/openapi.json"].includes(pathname) ? pathname : null;
}

class ApiClient {
  readonly #ajv = new Ajv2020({ strict: false, allErrors: true });
  #doc: Doc | null = null;
  checked = 0;

  constructor(readonly base: string) {
    addFormats(this.#ajv);
  }

  /** The document every later answer is checked against. */
  useDocument(doc: Doc) {
    this.#doc = doc;
    this.#ajv.addSchema({ ...doc, $id: DOC_ID });
  }

  async get(pathAndQuery: string, init: RequestInit = {}): Promise<Answer> {
    const response = await fetch(`${this.base}${pathAndQuery}`, init);
    const text = await response.text();
    const answer: Answer = { status: response.status, headers: response.headers, text, json: null };
    if (response.status === 204 || response.status === 304 || init.method === "HEAD") {
      expect(text).toBe("");
      return answer;
    }
    // Never HTML, never a stack trace: JSON, every time.
    expect(response.headers.get("content-type"), `${pathAndQuery}: ${text.slice(0, 200)}`).toMatch(
      /^application\/json/,
    );
    expect(text).not.toMatch(/<html|\n\s+at /i);
    answer.json = JSON.parse(text);
    this.#check(new URL(pathAndQuery, this.base).pathname, answer);
    return answer;
  }

  /** The body against the schema the document gives for this path and status. */
  #check(pathname: string, answer: Answer) {
    const doc = this.#doc;
    if (!doc) return;
    const template = templateOf(pathname);
    let schema: Ref | undefined;
    if (template === null) {
      // An address the document does not list: the JSON 404 every /api/ address gets.
      expect(answer.status).toBe(404);
      schema = { $ref: "#/components/schemas/Error" };
    } else {
      let response = doc.paths[template]?.get?.responses[String(answer.status)];
      expect(response, `${template} documents ${answer.status}`).toBeDefined();
      if (response?.$ref) response = doc.components.responses[response.$ref.split("/").pop() ?? ""];
      schema = response?.content?.["application/json"]?.schema;
      if (!schema) return; // The document itself: any JSON.
    }
    const validate = this.#ajv.compile({ $ref: `${DOC_ID}${schema.$ref}` });
    expect(validate(answer.json), `${pathname} ${answer.status}: ${JSON.stringify(validate.errors)}`).toBe(
      true,
    );
    this.checked++;
  }
}

function expectCors(answer: Answer) {
  expect(answer.headers.get("access-control-allow-origin")).toBe("*");
  expect(answer.headers.get("access-control-allow-credentials")).toBeNull();
}

describe("the API on SQLite", () => {
  let server: RunningServer;
  let api: ApiClient;
  let doc: Doc & Record<string, unknown>;

  beforeAll(async () => {
    // No fixed seed: /random draws anew on every request.
    server = await startServer({ env: { API_RATE_LIMIT: "0", SUKTI_RANDOM_SEED: "" } });
    api = new ApiClient(server.url);
    // Drafts and private posts that share a translation group and a person with
    // published ones, a published pair, and a published post far past the
    // other idNums (a gap every random draw must cross fairly).
    const file = path.join(server.dir, "api-posts.json");
    const post = (fields: Parameters<typeof postRecord>[0]) =>
      postRecord({ postTime: 1_780_000_000, ...fields });
    const kabir = { name: "Kabir", names: { hindi: "कबीर" } };
    writeFileSync(
      file,
      JSON.stringify({
        posts: [
          post({
            language: "english",
            idNum: 5000,
            slug: PAIR.english,
            title: "A pair",
            content: '<p>Love is the bridge.</p><p>See <a href="/tags">the tags</a>.</p>',
            featureImageUrl: "/images/cards/english-1.webp",
            translationKey: "api-pair",
            source: { person: kabir, work: "Bijak", reference: "Sakhi 12" },
          }),
          post({
            language: "hindi",
            idNum: 5000,
            slug: PAIR.hindi,
            title: "एक जोड़ा",
            content: "<p>प्रेम सेतु है।</p>",
            translationKey: "api-pair",
            source: { person: kabir, work: "", reference: "" },
          }),
          post({
            language: "marathi",
            idNum: 5000,
            slug: "मसुदा-जोडी",
            title: "मसुदा",
            content: "<p>मसुदा</p>",
            status: "draft",
            translationKey: "api-pair",
          }),
          post({
            language: "english",
            idNum: 3000,
            slug: DRAFT,
            title: "Draft",
            content: "<p>x</p>",
            status: "draft",
          }),
          post({
            language: "hindi",
            idNum: 40,
            slug: PRIVATE,
            title: "निजी",
            content: "<p>x</p>",
            status: "private",
          }),
          post({ language: "english", idNum: 90_000, slug: FAR, title: "Far away", content: "<p>Far.</p>" }),
        ],
      }),
    );
    const imported = await runSukti(["import", file], { DATABASE_URL: `file:${server.dbPath}` });
    expect(imported.status, imported.stderr).toBe(0);
    const document = await api.get("/api/v1/openapi.json");
    doc = document.json as Doc & Record<string, unknown>;
    api.useDocument(doc);
  });

  afterAll(async () => {
    await server?.stop();
  });

  test("the OpenAPI document is valid OpenAPI 3.1, on this site's origin", async () => {
    const result = await new Validator().validate(structuredClone(doc));
    expect(result.errors ?? [], JSON.stringify(result.errors)).toEqual([]);
    expect(result.valid).toBe(true);
    expect(doc.openapi).toBe("3.1.0");
    expect(doc.servers).toEqual([{ url: server.url }]);
    for (const pathname of ["/api/v1/today", "/api/v1/random", "/api/v1/posts/{language}/{slug}"])
      expect(Object.keys(doc.paths)).toContain(pathname);
  });

  test("a post: every field, addresses absolute, the HTML the page shows", async () => {
    const answer = await api.get(`/api/v1/posts/english/${PAIR.english}`);
    expect(answer.status).toBe(200);
    expectCors(answer);
    const origin = server.url;
    expect(answer.json).toEqual({
      language: "english",
      slug: PAIR.english,
      title: "A pair",
      text: "Love is the bridge.\nSee the tags.",
      html: `<p>Love is the bridge.</p><p>See <a href="${origin}/tags">the tags</a>.</p>`,
      date: new Date(1_780_000_000 * 1000).toISOString(),
      url: `${origin}/english/${PAIR.english}`,
      imageUrl: `${origin}/images/cards/english-1.webp`,
      shareImageUrl: expect.stringMatching(
        new RegExp(`^${origin}/share/english/[0-9a-z]+/${PAIR.english}\\.jpg$`),
      ),
      person: { name: "Kabir", url: `${origin}/people/kabir` },
      work: "Bijak",
      reference: "Sakhi 12",
      // The draft Marathi translation is not there.
      translations: { hindi: `${origin}/hindi/${encodeURIComponent(PAIR.hindi)}` },
    });
    // The share image the post page names, and it is served.
    const page = await (await fetch(`${origin}/english/${PAIR.english}`)).text();
    const shareImageUrl = (answer.json as { shareImageUrl: string }).shareImageUrl;
    expect(page).toContain(shareImageUrl.replace(origin, ""));
    expect((await fetch(shareImageUrl)).status).toBe(200);
    // The Hindi one, by its Devanagari slug: its person named in Hindi, no work or reference.
    const hindi = await api.get(`/api/v1/posts/hindi/${encodeURIComponent(PAIR.hindi)}`);
    expect(hindi.json).toMatchObject({
      slug: PAIR.hindi,
      imageUrl: null,
      person: { name: "कबीर", url: `${origin}/people/kabir` },
      work: null,
      reference: null,
      translations: { english: `${origin}/english/${PAIR.english}` },
    });
  });

  test("the quote of the day is the one the language home shows, kept until a write or the site's midnight", async () => {
    for (const language of ["english", "hindi", "marathi"]) {
      const answer = await api.get(`/api/v1/today?language=${language}`);
      expect(answer.status).toBe(200);
      expectCors(answer);
      const { url, language: said } = answer.json as { url: string; language: string };
      expect(said).toBe(language);
      const home = await (await fetch(`${server.url}/${language}/home`)).text();
      const daily = /<aside class="daily"[\s\S]*?href="([^"]+)"/.exec(home)?.[1];
      expect(daily).toBeDefined();
      expect(url).toBe(`${server.url}${daily}`);
      // A CDN may keep it, never past the site's midnight, and purge it by its tags.
      const cacheControl = answer.headers.get("cache-control") ?? "";
      expect(cacheControl).toMatch(/^public, max-age=0, must-revalidate, s-maxage=\d+/);
      expect(Number(/s-maxage=(\d+)/.exec(cacheControl)?.[1])).toBeLessThanOrEqual(86_400);
      const tags = (answer.headers.get("xkey") ?? "").split(" ");
      expect(tags).toContain(`list-${language}`);
      expect(tags.some((tag) => /^post[-_]/.test(tag))).toBe(true);
    }
  });

  test("ETag and 304, for the day's quote and a post; HEAD has the headers and no body", async () => {
    for (const address of ["/api/v1/today?language=hindi", `/api/v1/posts/english/${PAIR.english}`]) {
      const first = await api.get(address);
      const etag = first.headers.get("etag");
      expect(etag).toMatch(/^(W\/)?"[^"]+"$/);
      const again = await api.get(address, { headers: { "If-None-Match": etag ?? "" } });
      expect(again.status).toBe(304);
      expectCors(again);
      expect(again.headers.get("etag")).toBe(etag);
      const other = await api.get(address, { headers: { "If-None-Match": 'W/"something-else"' } });
      expect(other.status).toBe(200);
      expect(other.text).toBe(first.text);
      const head = await api.get(address, { method: "HEAD" });
      expect(head.status).toBe(200);
      expect(head.headers.get("etag")).toBe(etag);
    }
  });

  test("a CORS preflight is answered for any origin, without credentials", async () => {
    const preflight = await api.get("/api/v1/today?language=english", {
      method: "OPTIONS",
      headers: {
        Origin: "https://other.example",
        "Access-Control-Request-Method": "GET",
        "Access-Control-Request-Headers": "if-none-match",
      },
    });
    expect(preflight.status).toBe(204);
    expectCors(preflight);
    expect(preflight.headers.get("access-control-allow-methods")).toContain("GET");
    expect(preflight.headers.get("access-control-allow-headers")?.toLowerCase()).toContain("if-none-match");
    expect(Number(preflight.headers.get("access-control-max-age"))).toBeGreaterThan(0);
    // A cross-origin GET reads the answer and its ETag.
    const get = await api.get("/api/v1/random", { headers: { Origin: "https://other.example" } });
    expectCors(get);
    expect(get.headers.get("access-control-expose-headers")).toContain("ETag");
  });

  test("drafts and unpublished posts are the same 404 as an unknown slug, and leave the cache when unpublished", async () => {
    const unknown = await api.get("/api/v1/posts/english/no-such-post-here");
    expect(unknown.status).toBe(404);
    expectCors(unknown);
    expect(unknown.json).toEqual({ error: "no such post" });
    for (const address of [
      `/api/v1/posts/english/${DRAFT}`,
      `/api/v1/posts/hindi/${encodeURIComponent(PRIVATE)}`,
      `/api/v1/posts/marathi/${encodeURIComponent("मसुदा-जोडी")}`,
    ]) {
      const answer = await api.get(address);
      expect(answer.status, address).toBe(404);
      expect(answer.text).toBe(unknown.text);
    }
    // A published post, answered (and kept in the page cache), then unpublished.
    const before = await api.get(`/api/v1/posts/hindi/${encodeURIComponent(PAIR.hindi)}`);
    expect(before.status).toBe(200);
    const unpublished = await runSukti(["unpublish", "hindi", PAIR.hindi], {
      DATABASE_URL: `file:${server.dbPath}`,
    });
    expect(unpublished.status, unpublished.stderr).toBe(0);
    const after = await api.get(`/api/v1/posts/hindi/${encodeURIComponent(PAIR.hindi)}`);
    expect(after.status).toBe(404);
    expect(after.text).toBe(unknown.text);
    // Nor is it anyone's translation any more.
    const english = await api.get(`/api/v1/posts/english/${PAIR.english}`);
    expect((english.json as { translations: object }).translations).toEqual({});
  });

  test("random: only published posts, of the language asked, each about as likely", async () => {
    const hidden = new Set([DRAFT, PRIVATE, PAIR.hindi, "मसुदा-जोडी"]);
    const seen = new Map<string, number>();
    for (let i = 0; i < 60; i++) {
      const answer = await api.get("/api/v1/random?language=english");
      expect(answer.status).toBe(200);
      expect(answer.headers.get("cache-control")).toBe("no-store");
      expect(answer.headers.get("etag")).toBeNull();
      expectCors(answer);
      const { language, slug } = answer.json as { language: string; slug: string };
      expect(language).toBe("english");
      expect(hidden.has(slug)).toBe(false);
      seen.set(slug, (seen.get(slug) ?? 0) + 1);
    }
    // About 58 published English posts, 60 draws: many different ones, and the
    // post past a gap of 85,000 idNums no likelier than another (a seek to the
    // next idNum would give it nearly every draw).
    expect(seen.size).toBeGreaterThan(15);
    expect(seen.get(FAR) ?? 0).toBeLessThan(10);
    for (const language of ["hindi", "marathi"]) {
      for (let i = 0; i < 20; i++) {
        const answer = await api.get(`/api/v1/random?language=${language}`);
        const { language: said, slug } = answer.json as { language: string; slug: string };
        expect(said).toBe(language);
        expect(hidden.has(slug)).toBe(false);
      }
    }
    // Without a language: any published post, every language in time.
    const languages = new Set<string>();
    for (let i = 0; i < 40; i++) {
      const answer = await api.get("/api/v1/random");
      const { language, slug, url } = answer.json as { language: string; slug: string; url: string };
      expect(hidden.has(slug)).toBe(false);
      expect((await fetch(url, { method: "HEAD" })).status).toBe(200);
      languages.add(language);
    }
    expect([...languages].sort()).toEqual(["english", "hindi", "marathi"]);
  });

  test("bad requests: an unknown or missing language is 400, other addresses 404, other methods 405, all in JSON", async () => {
    for (const address of [
      "/api/v1/today",
      "/api/v1/today?language=klingon",
      "/api/v1/today?language=",
      "/api/v1/random?language=French",
      "/api/v1/posts/klingon/a-post",
    ]) {
      const answer = await api.get(address);
      expect(answer.status, address).toBe(400);
      expectCors(answer);
      expect((answer.json as { error: string }).error).toMatch(/language.*english, hindi, marathi/);
    }
    for (const address of [
      "/api",
      "/api/v2/today",
      "/api/v1/posts/english",
      "/api/v1/nothing",
      "/api/%ZZ",
      // Broken percent-encoding, a NUL, a slug past any bound: the same 404 as an unknown post.
      "/api/v1/posts/english/%",
      "/api/v1/posts/english/%E0%A4",
      "/api/v1/posts/english/%00",
      `/api/v1/posts/english/${"a".repeat(5000)}`,
    ]) {
      const answer = await api.get(address);
      expect(answer.status, address).toBe(404);
    }
    for (const method of ["POST", "PUT", "DELETE", "PATCH"]) {
      const answer = await api.get("/api/v1/today?language=english", { method });
      expect(answer.status, method).toBe(405);
      expectCors(answer);
      expect(answer.headers.get("allow")).toBe("GET, HEAD, OPTIONS");
    }
  });

  test("every answer of this file matched the document", () => {
    expect(api.checked).toBeGreaterThan(100);
  });
});

describe("the API behind PUBLIC_URL, with a low per-client limit", () => {
  let server: RunningServer;

  beforeAll(async () => {
    server = await startServer({ env: { API_RATE_LIMIT: "3", PUBLIC_URL: "https://quotes.example" } });
  });

  afterAll(async () => {
    await server?.stop();
  });

  test("addresses are on PUBLIC_URL; past the limit 429 with Retry-After, in JSON, cached answers counted too", async () => {
    const api = new ApiClient(server.url);
    api.useDocument((await api.get("/api/v1/openapi.json")).json as Doc);
    const first = await api.get("/api/v1/today?language=marathi");
    expect(first.status).toBe(200);
    const post = first.json as { url: string; shareImageUrl: string; translations: Record<string, string> };
    expect(post.url).toMatch(/^https:\/\/quotes\.example\/marathi\//);
    expect(post.shareImageUrl).toMatch(/^https:\/\/quotes\.example\/share\//);
    // The third request is the last this minute: the same (now cached) address.
    expect((await api.get("/api/v1/today?language=marathi")).status).toBe(200);
    const refused = await api.get("/api/v1/today?language=marathi");
    expect(refused.status).toBe(429);
    expectCors(refused);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(Number(refused.headers.get("retry-after"))).toBeLessThanOrEqual(60);
    expect((refused.json as { error: string }).error).toMatch(/too many requests/);
    expect((await api.get("/api/v1/random")).status).toBe(429);
    // Pages are not the API's to limit.
    expect((await fetch(`${server.url}/marathi/home`)).status).toBe(200);
  });
});
