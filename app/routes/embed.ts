// /embed/{language}/{slug}: a published post's quote card that other sites
// may frame (decision 063). A resource route writing its own
// small page: no site frame, no JavaScript, no cookie, one <style>
// allowed by its hash; the server lets only these addresses be framed
// (server/security.ts). Drafts, unpublished and unknown posts, and any other
// /embed/… address, get a small 404 in the same style. Cached like a page:
// the post's read gives it the post's tags (app/data/cache-tags.ts).

// The site's own Devanagari face (app/styles/fonts.css), the same hashed file in /assets.
import devanagari from "@fontsource/noto-sans-devanagari/files/noto-sans-devanagari-devanagari-400-normal.woff2?url";
import { embedQuote, escapeHtml } from "#app/content/embed.ts";
import { EMBED_LABELS } from "#app/content/embed-labels.ts";
import { isLanguage, LANG_TAG, type Language, postPath } from "#app/content/languages.ts";
import { toSourceView } from "#app/content/post-source.ts";
import { nonceContext, originContext, storeContext } from "#app/context.ts";
import { currentSite } from "#app/site.ts";
import type { Route } from "./+types/embed";

// The site's colours (app/styles/app.css), light and dark. Fonts as on the
// site's pages: Latin in the reader's own; Devanagari first in the site's Noto
// Sans Devanagari (the same hashed file in /assets, 50 kB, fetched only for
// Devanagari text: its unicode-range), or the device's own copy of it. A
// Devanagari face further down the list is not enough: Chromium lays out some
// text again once a fallback web font arrives, and leaves other runs as tofu
// (decision 063).
const CSS =
  '@font-face{font-family:"Sukti Devanagari";font-display:swap;' +
  `src:local("Noto Sans Devanagari"),local("NotoSansDevanagari-Regular"),url(${devanagari}) format("woff2");` +
  "unicode-range:U+0900-097F,U+1CD0-1CF9,U+200C-200D,U+20A8,U+20B9,U+20F0,U+25CC,U+A830-A839,U+A8E0-A8FF}" +
  ":root{color-scheme:light dark;--ink:#2b1d14;--soft:#5c4636;--card:#fff;--line:#ead9c2;--accent:#9a3412}" +
  "@media (prefers-color-scheme:dark){:root{--ink:#f3e9dc;--soft:#d2c1ad;--card:#251d17;--line:#44362b;--accent:#f3a873}}" +
  "*{box-sizing:border-box}html,body{height:100%;margin:0}" +
  'body{font:18px/1.55 "Noto Sans",system-ui,"Sukti Devanagari",sans-serif;color:var(--ink);background:var(--card);' +
  "border:1px solid var(--line);border-radius:12px;padding:16px 20px;display:flex;flex-direction:column;overflow:auto}" +
  'body:lang(hi),body:lang(mr){font-family:"Sukti Devanagari","Noto Sans",system-ui,sans-serif}' +
  "figure{margin:0 0 auto}blockquote{margin:0;padding-left:14px;border-left:4px solid var(--accent)}p{margin:0}" +
  "figcaption{margin-top:8px;color:var(--soft);font-size:15px}" +
  "a{margin-top:10px;align-self:flex-end;color:var(--accent);font-size:15px}a:focus-visible{outline:2px solid;outline-offset:2px}";

function page(language: Language, title: string, body: string, nonce: string, status: number): Response {
  const html =
    `<!DOCTYPE html><html lang="${LANG_TAG[language]}" dir="ltr"><head><meta charset="utf-8">` +
    '<meta name="viewport" content="width=device-width,initial-scale=1"><meta name="robots" content="noindex">' +
    `<title>${escapeHtml(title)}</title><style nonce="${nonce}">${CSS}</style></head><body>${body}</body></html>`;
  return new Response(html, {
    status,
    headers: { "Content-Type": "text/html; charset=utf-8", "X-Robots-Tag": "noindex" },
  });
}

const fill = (text: string, site: string) => escapeHtml(text.replace("{site}", () => site));

export async function loader({ request, context }: Route.LoaderArgs) {
  const nonce = context.get(nonceContext);
  const origin = context.get(originContext);
  const site = currentSite().name;
  const [, , first, encoded, ...rest] = new URL(request.url).pathname.split("/");
  const language = isLanguage(first) ? first : "english";
  let slug: string | null = null;
  try {
    if (isLanguage(first) && encoded && rest.length === 0)
      slug = decodeURIComponent(encoded).normalize("NFC");
  } catch {
    slug = null; // broken percent-encoding: not a post
  }
  const post = slug === null ? null : await context.get(storeContext).getPost(language, slug);
  const labels = EMBED_LABELS[language];
  if (!post) {
    const body = `<p>${escapeHtml(labels.notFound)}</p><a href="${escapeHtml(origin)}/" target="_blank" rel="noopener">${fill(labels.visitSite, site)}</a>`;
    return page(language, `${labels.notFound} · ${site}`, body, nonce, 404);
  }
  const { lines, attribution } = embedQuote({
    title: post.title,
    content: post.content,
    source: toSourceView(post.source, post.language),
  });
  const href = escapeHtml(`${origin}${postPath(post.language, post.slug)}`);
  const body =
    `<figure><blockquote cite="${href}"><p>${lines.map(escapeHtml).join("<br>")}</p></blockquote>` +
    (attribution ? `<figcaption>— ${escapeHtml(attribution)}</figcaption>` : "") +
    `</figure><a href="${href}" target="_blank" rel="noopener">${fill(labels.readOn, site)} →</a>`;
  return page(language, `${post.title} · ${site}`, body, nonce, 200);
}
