import { expect, test } from "vitest";
import { PageRecordSchema, PostRecordSchema, withTitleFromContent } from "#app/content/schemas.ts";
import { isBlankTitle, MADE_TITLE_GRAPHEMES, titleFromContent, titleOfText } from "#app/content/untitled.ts";

const graphemes = (text: string) =>
  [...new Intl.Segmenter(undefined, { granularity: "grapheme" }).segment(text)].length;

test("the opening words: the first line whole when it fits, in any script", () => {
  expect(titleFromContent("<p>बुरा जो देखन मैं चला, बुरा न मिलिया कोय।<br>\nजो दिल खोजा आपना…</p>")).toBe(
    "बुरा जो देखन मैं चला, बुरा न मिलिया कोय।",
  );
  expect(titleFromContent("<p>  </p>\n<p>The river and its waves are one surf.</p>")).toBe(
    "The river and its waves are one surf.",
  );
  // Entities decoded, tags gone, spaces collapsed; 4-byte emoji kept.
  expect(titleFromContent("<p><strong>Faith</strong> &amp;&nbsp;hope 🙏🏽</p>")).toBe("Faith & hope 🙏🏽");
  // A post of only an emoji has a title.
  expect(titleFromContent("<p>🙏</p>")).toBe("🙏");
});

test("cut at a word boundary, at most 70 graphemes with the ellipsis; Devanagari words stay whole", () => {
  const marathi =
    "मनाचिये गुंती गुंफियेला शेला, जाणीव-नेणीवेच्या पलीकडे नेणारा हा अभंग संत तुकारामांनी देहूच्या डोंगरावर लिहिला आहे असे म्हणतात.";
  const title = titleOfText(marathi);
  expect(graphemes(title)).toBeLessThanOrEqual(MADE_TITLE_GRAPHEMES);
  expect(title.endsWith("…")).toBe(true);
  const words = title.slice(0, -1).split(" ");
  // Every word of the title is a whole word of the text (no vowel sign or conjunct cut off).
  for (const word of words) expect(marathi.split(" ")).toContain(word);
  expect(marathi.startsWith(title.slice(0, -1))).toBe(true);
  // More code units than graphemes: counted as a reader counts, not as JavaScript does.
  expect(title.length).toBeGreaterThan(graphemes(title));

  const english =
    "Love is the bridge between you and everything, said Rumi, and the bridge holds, whatever crosses it.";
  expect(titleOfText(english)).toBe("Love is the bridge between you and everything, said Rumi, and the…");
  // A comma before the cut is dropped.
  expect(titleOfText("aaaa bbbb, cccc", 12)).toBe("aaaa bbbb…");
  // One word longer than the limit is cut between graphemes, never inside one.
  const long = "क्षत्रिय".repeat(20);
  const nine = [...new Intl.Segmenter(undefined, { granularity: "grapheme" }).segment(long)].slice(0, 9);
  expect(titleOfText(long, 10)).toBe(`${nine.map((s) => s.segment).join("")}…`);
});

test("no words: \"\"; script, style and comments are not a reader's words; an image's alt text is", () => {
  expect(titleFromContent("")).toBe("");
  expect(titleFromContent("<p> &nbsp; </p><!-- wp:spacer /--><hr>")).toBe("");
  expect(titleFromContent("<script>alert(1)</script><style>p{}</style><!-- secret -->")).toBe("");
  expect(titleFromContent('<figure><img src="/a.jpg" alt="प्रेम की तस्वीर"></figure>')).toBe("प्रेम की तस्वीर");
  expect(titleFromContent('<img src="/a.jpg" alt="">')).toBe("");
});

test("blank titles: empty, spaces, a space entity, control characters; a missing title is not blank", () => {
  for (const blank of ["", "   ", "&nbsp;", "\u0000 \n"])
    expect(isBlankTitle(blank), JSON.stringify(blank)).toBe(true);
  for (const title of [undefined, null, 0, "x", "(no title)"]) expect(isBlankTitle(title)).toBe(false);
});

test("the schemas make the title of a blank-titled post or page; sync and import both pass there", () => {
  const post = {
    idNum: 1,
    language: "hindi",
    status: "publish",
    postTime: 1_700_000_000,
    title: " ",
    slug: "1",
    content: "<p>जब मैं था तब हरि नहीं, अब हरि हैं मैं नाहिं।</p>",
  };
  expect(PostRecordSchema.parse(post).title).toBe("जब मैं था तब हरि नहीं, अब हरि हैं मैं नाहिं।");
  expect(PageRecordSchema.parse({ slug: "about", title: "", content: "<p>About us</p>" }).title).toBe(
    "About us",
  );
  // A given title is kept; a missing one is still an error; blank with no words is refused with a clear message.
  expect(PostRecordSchema.parse({ ...post, title: "दोहा" }).title).toBe("दोहा");
  expect(PostRecordSchema.safeParse({ ...post, title: undefined }).success).toBe(false);
  const empty = PostRecordSchema.safeParse({ ...post, content: "<p></p>" });
  expect(empty.success).toBe(false);
  expect(empty.error?.issues[0]?.message).toBe("is empty, and the content has no words to make one of");
  // Pure: the input is not changed.
  const input = { ...post };
  withTitleFromContent(input);
  expect(input.title).toBe(" ");
});

test("hostile content: unclosed hidden elements hide the rest, in one pass", () => {
  expect(titleFromContent("<p>Seen</p><script>".repeat(30_000))).toBe("Seen");
  expect(titleFromContent(`<p>Words</p>${"<style>".repeat(30_000)}`)).toBe("Words");
});
