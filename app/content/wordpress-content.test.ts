import { expect, test } from "vitest";
import {
  autop,
  linkBareUrls,
  moreTeaser,
  renderShortcodes,
  wordpressContent,
} from "#app/content/wordpress-content.ts";
import { sanitizePostHtml } from "#app/data/sanitize.server.ts";

test("block delimiters go, their inner HTML stays: opening, closing, self-closing with JSON attributes", () => {
  const html = wordpressContent(
    [
      "<!-- wp:paragraph -->",
      "<p>मन चंगा तो कठौती में गंगा।</p>",
      "<!-- /wp:paragraph -->",
      "",
      '<!-- wp:image {"id":5,"sizeSlug":"large","linkDestination":"none","className":"is-style-rounded"} /-->',
      "",
      '<!-- wp:quote {"className":"is-style-large"} -->',
      '<blockquote class="wp-block-quote"><p>A quote</p><cite>Ravidas</cite></blockquote>',
      "<!-- /wp:quote -->",
      '<!-- wp:latest-posts {"postsToShow":3} /-->',
    ].join("\n"),
  );
  expect(html).toBe(
    '<p>मन चंगा तो कठौती में गंगा।</p>\n<blockquote class="wp-block-quote"><p>A quote</p><cite>Ravidas</cite></blockquote>',
  );
  expect(
    wordpressContent(
      "<!-- wp:paragraph -->\n<p>x</p>\n<!-- /wp:paragraph -->\n\n<!-- wp:paragraph -->\n<p>y</p>\n<!-- /wp:paragraph -->",
    ),
  ).toBe("<p>x</p>\n<p>y</p>");
  // Only blocks that render server-side (no HTML of their own): nothing.
  expect(
    wordpressContent('<!-- wp:latest-posts /-->\n<!-- wp:gallery {"ids":[1,2]} --><!-- /wp:gallery -->'),
  ).toBe("");
});

test("shortcodes: caption keeps its image and text, media become links, gallery and unknown ones go", () => {
  expect(
    renderShortcodes(
      '[caption id="attachment_7" align="aligncenter" width="300"]<a href="https://x.org/a.jpg"><img src="https://x.org/a.jpg" alt="A" /></a> The river at dawn[/caption]',
    ).trim(),
  ).toBe(
    '<figure><a href="https://x.org/a.jpg"><img src="https://x.org/a.jpg" alt="A" /></a><figcaption>The river at dawn</figcaption></figure>',
  );
  // The old form, caption in an attribute.
  expect(renderShortcodes('[caption caption="Dawn"]<img src="/a.jpg">[/caption]').trim()).toBe(
    '<figure><img src="/a.jpg"><figcaption>Dawn</figcaption></figure>',
  );
  expect(renderShortcodes("[embed]https://www.youtube.com/watch?v=zz&amp;t=3[/embed]").trim()).toBe(
    '<p><a href="https://www.youtube.com/watch?v=zz&amp;t=3">https://www.youtube.com/watch?v=zz&amp;t=3</a></p>',
  );
  expect(renderShortcodes('[audio mp3="https://x.org/bhajan.mp3"][/audio]').trim()).toBe(
    '<p><a href="https://x.org/bhajan.mp3">https://x.org/bhajan.mp3</a></p>',
  );
  expect(renderShortcodes('[video width="640" height="360" src="https://x.org/v.mp4"]').trim()).toBe(
    '<p><a href="https://x.org/v.mp4">https://x.org/v.mp4</a></p>',
  );
  // A media shortcode whose address could run is dropped, not linked.
  expect(renderShortcodes('[audio src="javascript:alert(1)"]').trim()).toBe("");
  expect(renderShortcodes('before [gallery ids="1,2,3" columns="2"] after')).toBe("before  after");
  expect(renderShortcodes('[gallery link="file"]')).toBe("");
  expect(renderShortcodes("[playlist]")).toBe("");
  expect(renderShortcodes('[contact-form-7 id="12" title="Contact"]')).toBe("");
  expect(renderShortcodes("[jetpack_subscription_form]")).toBe("");
  expect(renderShortcodes('[su_quote cite="Kabir"]साँच बराबर तप नहीं[/su_quote]')).toBe("साँच बराबर तप नहीं");
  // Nested enclosing shortcodes.
  expect(renderShortcodes("[su_box][su_quote]Words[/su_quote] and more[/su_box]")).toBe("Words and more");
  // WordPress's escape shows the shortcode as text; a bracketed word that is no shortcode stays.
  expect(renderShortcodes("[[gallery]] and [sic], [Chorus], [1], [टेक]")).toBe(
    "[gallery] and [sic], [Chorus], [1], [टेक]",
  );
});

test("a line that is only an address becomes a link, never an embed; addresses inside text stay as they are", () => {
  expect(linkBareUrls("https://www.youtube.com/watch?v=abc")).toBe(
    '<p><a href="https://www.youtube.com/watch?v=abc">https://www.youtube.com/watch?v=abc</a></p>',
  );
  expect(linkBareUrls("see https://example.org here")).toBe("see https://example.org here");
  expect(linkBareUrls('<a href="https://example.org">x</a>')).toBe('<a href="https://example.org">x</a>');
  const classic = wordpressContent("First line\nsecond line\n\nhttps://vimeo.com/12345\n\nLast.");
  expect(classic).toBe(
    '<p>First line<br>\nsecond line</p>\n<p><a href="https://vimeo.com/12345">https://vimeo.com/12345</a></p>\n<p>Last.</p>',
  );
  const block = wordpressContent(
    '<!-- wp:embed {"url":"https://www.youtube.com/watch?v=abc","type":"video","providerNameSlug":"youtube"} -->\n<figure class="wp-block-embed"><div class="wp-block-embed__wrapper">\nhttps://www.youtube.com/watch?v=abc\n</div></figure>\n<!-- /wp:embed -->',
  );
  // Through the site's sanitizer, as on writing: a link, no iframe, nothing fetched.
  expect(sanitizePostHtml(block)).toBe(
    '<figure>\n<p><a href="https://www.youtube.com/watch?v=abc" rel="noopener noreferrer nofollow">https://www.youtube.com/watch?v=abc</a></p>\n</figure>',
  );
});

test("an audio or video block's player becomes a link to its file, as the shortcodes do; no empty figure is left", () => {
  expect(
    wordpressContent(
      '<!-- wp:audio {"id":31} -->\n<figure class="wp-block-audio"><audio controls src="https://x.org/vari.mp3"></audio></figure>\n<!-- /wp:audio -->',
    ),
  ).toBe(
    '<figure class="wp-block-audio"><p><a href="https://x.org/vari.mp3">https://x.org/vari.mp3</a></p></figure>',
  );
  expect(
    wordpressContent(
      '<figure class="wp-block-video"><video controls><source src="https://x.org/v.webm"></video></figure>',
    ),
  ).toBe(
    '<figure class="wp-block-video">\n<p><a href="https://x.org/v.webm">https://x.org/v.webm</a></p>\n</figure>',
  );
  expect(
    wordpressContent(
      '<!-- wp:audio -->\n<figure class="wp-block-audio"><audio controls src="javascript:x"></audio><figcaption></figcaption></figure>\n<!-- /wp:audio -->',
    ),
  ).toBe("");
});

test("<!--more--> and <!--nextpage--> go; the text before <!--more--> is the teaser", () => {
  const raw = "The first part.\n<!--more-->\nThe rest.\n<!--nextpage-->\nPage two.";
  expect(wordpressContent(raw)).toBe("<p>The first part.</p>\n<p>The rest.</p>\n<p>Page two.</p>");
  expect(moreTeaser(raw)).toBe("The first part.\n");
  expect(
    moreTeaser('<!-- wp:more {"customText":"Read on"} -->\n<!--more Read on-->\n<!-- /wp:more -->'),
  ).toBe('<!-- wp:more {"customText":"Read on"} -->\n');
  expect(moreTeaser("no cut")).toBeNull();
});

test("classic-editor text gets paragraphs and line breaks as wpautop would", () => {
  expect(autop("One\ntwo\n\nThree\n<ul>\n<li>a</li>\n</ul>\nAfter")).toBe(
    "<p>One<br>\ntwo</p>\n<p>Three</p>\n<ul>\n<li>a</li>\n</ul>\n<p>After</p>",
  );
  expect(autop("  ")).toBe("");
  // A post of only a shortcode is empty.
  expect(wordpressContent('[gallery ids="4,5"]\n\n')).toBe("");
});

test("a thousand enclosing shortcodes: past the bounded rounds, their tags still go", () => {
  const many = "[su_b]x[/su_b]".repeat(1000);
  const out = renderShortcodes(many);
  expect(out).not.toContain("[su_b");
  expect(out).not.toContain("[/su_b]");
});

test("unclosed comments and shortcodes by the thousand: one pass each, nothing lost", () => {
  const unclosed = "<!-- wp:paragraph ".repeat(30_000);
  // Not a block delimiter (never closed): classic text, which the sanitizer then drops as a comment.
  expect(wordpressContent(unclosed)).toBe(`<p>${unclosed.trim()}</p>`);
  const opens = "[su_box ".repeat(30_000);
  expect(renderShortcodes(opens)).toBe(opens);
  expect(renderShortcodes("[/su_box]".repeat(30_000))).toBe("");
});
