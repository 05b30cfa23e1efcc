// A WordPress REST post as an import record (cli/sync-map.ts, decision 053):
// the language rules in their order, and what is skipped with why.
import { expect, test } from "vitest";
import { mapPost, type WpPost } from "#cli/sync-map.ts";

const base: WpPost = {
  id: 40,
  date_gmt: "2026-11-01T10:00:00",
  modified_gmt: "2026-11-01T10:00:00",
  slug: "a-post",
  status: "publish",
  title: { rendered: "A post" },
  content: { rendered: "<p>Text.</p>", protected: false },
  excerpt: { rendered: "<p>Own excerpt.</p>", protected: false },
  _embedded: { author: [{ name: "Mira" }] },
};

const withCategories = (...names: [string, string][]): WpPost => ({
  ...base,
  _embedded: {
    ...base._embedded,
    "wp:term": [names.map(([name, slug]) => ({ name, slug, taxonomy: "category" })), []],
  },
});

const language = (post: WpPost, options = {}) => {
  const mapped = mapPost(post, options);
  return mapped.kind === "post" ? mapped.record.language : `skip: ${mapped.reason}`;
};

test("Polylang's lang, then WPML's locale, then categories, then --language; else skipped", () => {
  expect(language({ ...base, lang: "mr" })).toBe("marathi");
  expect(language({ ...base, lang: "fr" })).toMatch(
    /^skip: language "fr" \(Polylang; not English, Hindi or Marathi\)/,
  );
  expect(language({ ...base, wpml_current_locale: "hi_IN" })).toBe("hindi");
  expect(language(withCategories(["हिंदी", "hindi-1"]))).toBe("hindi");
  expect(language(withCategories(["Quotes", "marathi"]))).toBe("marathi");
  expect(
    language(withCategories(["Suvichar", "suvichar"]), { languageCategories: { marathi: "suvichar" } }),
  ).toBe("marathi");
  expect(language(withCategories(["English", "english"], ["Hindi", "hindi"]), { language: "english" })).toBe(
    "skip: language: its categories name english and hindi",
  );
  expect(language(base, { language: "hindi" })).toBe("hindi");
  expect(language(base)).toMatch(/^skip: language unknown/);
});

test("fields: entities decoded, WordPress-made excerpts dropped, the author the person, WPML groups", () => {
  const mapped = mapPost(
    {
      ...base,
      lang: "en",
      title: { rendered: "Faith &amp; Hope &#8217;s" },
      excerpt: { rendered: '<p>Text <a class="more-link" href="/x">Continue reading</a></p>' },
      wpml_translations: [{ locale: "hi_IN", id: 41 }],
    },
    {},
  );
  expect(mapped.kind).toBe("post");
  if (mapped.kind !== "post") return;
  expect(mapped.record).toMatchObject({
    idNum: 40,
    title: "Faith & Hope ’s",
    excerpt: "",
    postTime: Date.UTC(2026, 10, 1, 10) / 1000,
    translationKey: "wp-40",
    source: { person: { name: "Mira" } },
  });
});

test("password-protected and untitled posts are skipped with their reason", () => {
  expect(mapPost({ ...base, lang: "en", content: { rendered: "", protected: true } }, {})).toEqual({
    kind: "skip",
    reason: "password-protected",
  });
  const untitled = mapPost({ ...base, lang: "en", title: { rendered: "" } }, {});
  // Until the shared schema titles untitled posts (decision 054), the schema's own reason.
  if (untitled.kind === "skip") expect(untitled.reason).toMatch(/^title: /);
  else expect(untitled.record.title).not.toBe("");
});
