// A post's article (PostArticle, app/components/post-article.tsx, and what it
// holds) written as a string, as React writes it on the server before the
// page hydrates: the twin server/post-page.ts splices into a post page made
// once per language (decision 097). Each element here is its component's
// markup at first render (no saved state, no voice, no copy buttons: those
// come with hydration). tests/integration/post-fast.test.ts compares the
// pages made both ways, byte for byte, over posts of every shape.
import { ROMAN_LETTERS_SCRIPT } from "#app/components/roman-letters.tsx";
import { EMBED_WIDTH, embedHeight, embedPath, embedQuote, embedSnippet } from "#app/content/embed.ts";
import { EMBED_LABELS } from "#app/content/embed-labels.ts";
import { IMAGE_SIZES } from "#app/content/image-variants.ts";
import { LIST_IMAGE_SIZES } from "#app/content/list-image-sizes.ts";
import type { PostCard, PostView } from "#app/content/post-view.ts";
import { type ReadingLabels, readingLabelsFor } from "#app/content/reading-labels.ts";
import type { RomanQuote } from "#app/content/roman-letters.ts";
import type { PostRouteData } from "#app/content/route-data.ts";
import { SAVE_LABELS } from "#app/content/save-labels.ts";
import { shareImagePath } from "#app/share-image/content.ts";
import { LIST_CARD_SIZE, listCardPath, listCardSrcSet } from "#app/share-image/list-card.ts";
import { Children, escaped, linkOpen, postImageHtml } from "./react-markup.ts";

/** The images' box (the identity's defaultImage), as PostImage reads it. */
export interface ImageBox {
  width: number;
  height: number;
}

/** SaveButton on a post page before hydration: its place held, unseen and disabled. */
function waitingSaveButton(post: PostView): string {
  return (
    '<div class="post-save"><button type="button" class="save-button save-waiting" disabled="" aria-hidden="true" tabindex="-1">' +
    '<svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true" focusable="false">' +
    '<path d="M6 3.5h12v17l-6-4.2-6 4.2z" fill="none" stroke="currentColor" stroke-width="2" stroke-linejoin="round"></path></svg>' +
    `${escaped(SAVE_LABELS[post.language].save)}</button></div>`
  );
}

function sourceHtml(source: NonNullable<PostView["source"]>): string {
  const { person, work, reference } = source;
  const children = new Children().text("— ");
  if (person) children.tag(`${linkOpen(person.href)}${escaped(person.name)}</a>`);
  if (person && work) children.text(", ");
  if (work) children.tag(`<cite>${escaped(work)}</cite>`);
  if ((person || work) && reference) children.text(", ");
  children.text(reference);
  return `<p class="post-source">${children.html}</p>`;
}

function romanLettersHtml(roman: RomanQuote, labels: ReadingLabels): string {
  return (
    `<details class="roman-letters"><summary>${escaped(labels.romanLetters)}</summary>` +
    `<div class="roman-letters-body" lang="${escaped(roman.lang)}">` +
    `<p class="roman-letters-title">${escaped(roman.title)}</p>` +
    `<p class="roman-letters-text">${escaped(roman.text)}</p></div></details>` +
    `<script>${ROMAN_LETTERS_SCRIPT}</script>`
  );
}

/** PostListen before hydration: the recording's player, if any (the reading's controls need a voice). */
function listenHtml(audio: string, labels: ReadingLabels): string {
  const recording = audio
    ? `<figure class="post-audio"><figcaption>${escaped(labels.recording)}</figcaption>` +
      `<audio controls="" preload="none" src="${escaped(audio)}"></audio></figure>`
    : "";
  return `<div class="listen">${recording}</div>`;
}

/** A span before a row of chips: its label, then a colon. */
function chipsLabel(label: string): string {
  return `<span>${new Children().text(label).text(":").html}</span>`;
}

function shareHtml(post: PostView, url: string, labels: ReadingLabels): string {
  const byline = post.source?.person?.name ?? "";
  const said = byline ? `${post.title} — ${byline}` : post.title;
  const message = `${said}\n${url}`;
  const links: [string, string][] = [
    ["WhatsApp", `https://wa.me/?text=${encodeURIComponent(message)}`],
    ["Facebook", `https://www.facebook.com/sharer/sharer.php?u=${encodeURIComponent(url)}`],
    ["X", `https://x.com/intent/post?text=${encodeURIComponent(said)}&url=${encodeURIComponent(url)}`],
  ];
  let items = "";
  for (const [network, href] of links) {
    items += `<li><a href="${escaped(href)}" target="_blank" rel="noopener noreferrer" class="share-button" lang="en">${network}</a></li>`;
  }
  // ShareImageLink, in the post's words.
  items +=
    `<li><a href="${escaped(`${shareImagePath(post)}?download`)}" download="${escaped(`${post.slug}.jpg`)}" class="share-button">` +
    `${escaped(readingLabelsFor(post.language).downloadImage)}</a></li>`;
  return (
    `<section class="share" aria-label="${escaped(labels.share)}"><h2 class="share-title">${escaped(labels.share)}</h2>` +
    `<ul class="share-list">${items}</ul><p class="share-status" role="status" aria-live="polite"></p></section>`
  );
}

function embedHtml(post: PostView, url: string): string {
  const words = EMBED_LABELS[post.language];
  const src = `${new URL(url).origin}${embedPath(post.language, post.slug)}`;
  const snippet = embedSnippet(src, post.title, EMBED_WIDTH, embedHeight(embedQuote(post), EMBED_WIDTH));
  return (
    `<details class="embed"><summary>${escaped(words.embed)}</summary><p class="embed-hint">${escaped(words.embedHint)}</p>` +
    `<textarea class="embed-code" readOnly="" rows="4" aria-label="${escaped(words.embedCode)}">` +
    // React starts a textarea's text that begins with a line break with one more (the parser drops the first).
    `${snippet.startsWith("\n") ? "\n" : ""}${escaped(snippet)}</textarea>` +
    '<p class="embed-status" role="status" aria-live="polite"></p></details>'
  );
}

function navHtml(previous: PostCard | null, next: PostCard | null, labels: ReadingLabels): string {
  if (!previous && !next) return "";
  const side = (card: PostCard | null, rel: "prev" | "next") => {
    if (!card) return "<span></span>";
    const label =
      rel === "prev"
        ? new Children().text("← ").text(labels.previousPost).html
        : new Children().text(labels.nextPost).text(" →").html;
    const place = rel === "prev" ? "post-nav-previous" : "post-nav-next";
    return (
      linkOpen(card.href, ` rel="${rel}" class="post-nav-link ${place}"`) +
      `<span class="post-nav-label">${label}</span><span class="post-nav-title">${escaped(card.title)}</span></a>`
    );
  };
  return (
    `<nav class="post-nav" aria-label="${escaped(`${labels.previousPost} / ${labels.nextPost}`)}">` +
    `${side(previous, "prev")}${side(next, "next")}</nav>`
  );
}

/** A related post's card (PostCard in PostGrid: heading level 3, lazy, "related" sizes; no save button before hydration). */
function relatedCardHtml(card: PostCard, box: ImageBox): string {
  const sizes = LIST_IMAGE_SIZES.related;
  let image: string;
  if (card.cardVersion) {
    // QuoteCardImage.
    const version = card.cardVersion;
    image =
      `<picture><source media="(prefers-color-scheme: dark)" srcSet="${escaped(listCardSrcSet(card, version, "dark"))}" sizes="${escaped(sizes)}" type="image/webp"/>` +
      `<img class="post-card-image quote-card-image" src="${escaped(listCardPath(card, version, "light", LIST_CARD_SIZE))}"` +
      ` srcSet="${escaped(listCardSrcSet(card, version, "light"))}" sizes="${escaped(sizes)}" alt=""` +
      ` width="${LIST_CARD_SIZE}" height="${LIST_CARD_SIZE}" loading="lazy" decoding="async" fetchPriority="low"/></picture>`;
  } else {
    image = postImageHtml({ src: card.image, alt: "", className: "post-card-image", sizes, ...box });
  }
  return (
    `<article class="post-card" lang="${escaped(card.lang)}">${linkOpen(card.href, ' class="post-card-link"')}` +
    `${image}<h3 class="post-card-title">${escaped(card.title)}</h3></a>` +
    `<time class="post-card-date" dateTime="${escaped(card.isoDateTime)}">${escaped(card.postDateTime)}</time></article>`
  );
}

/** What the article shows: a post route's data (app/content/route-data.ts). */
export type PostArticleData = Omit<PostRouteData, "kind" | "pageLanguage">;

/** PostArticle as React renders it on the server, in the page language's labels. */
export function postArticleHtml(
  { post, url, previous, next, related, roman }: PostArticleData,
  labels: ReadingLabels,
  box: ImageBox,
): string {
  let html =
    `<div class="post-layout" lang="${escaped(post.lang)}"><article class="post">` +
    `<h1 class="post-title">${escaped(post.title)}</h1>` +
    `<p class="post-meta">${
      new Children()
        .text(labels.postedOn)
        .text(" ")
        .tag(`<time dateTime="${escaped(post.isoDateTime)}">${escaped(post.postDateTime)}</time>`).html
    }</p>` +
    waitingSaveButton(post);
  if (post.hasOwnImage) {
    html += postImageHtml({
      src: post.image,
      alt: post.title,
      eager: true,
      className: "post-image",
      sizes: IMAGE_SIZES.post,
      ...box,
    });
  }
  html += `<div class="post-content">${post.content}</div>`;
  if (post.source) html += sourceHtml(post.source);
  if (roman) html += romanLettersHtml(roman, labels);
  html += listenHtml(post.audio, labels);
  if (post.translations.length > 0) {
    html += `<p class="post-translations">${chipsLabel(labels.readIn)}`;
    for (const translation of post.translations) {
      const attributes = ` lang="${escaped(translation.lang)}" hrefLang="${escaped(translation.lang)}" title="${escaped(translation.title)}" class="chip"`;
      html += `${linkOpen(translation.href, attributes)}${escaped(translation.label)}</a>`;
    }
    html += "</p>";
  }
  for (const [label, terms] of [
    [labels.categories, post.categories],
    [labels.tags, post.tags],
  ] as const) {
    if (terms.length === 0) continue;
    html += `<p class="post-terms">${chipsLabel(label)}`;
    for (const term of terms) html += `${linkOpen(term.href, ' class="chip"')}${escaped(term.name)}</a>`;
    html += "</p>";
  }
  html += `${shareHtml(post, url, labels)}${embedHtml(post, url)}</article>`;
  html += navHtml(previous, next, labels);
  if (related.length > 0) {
    html += `<section class="related" aria-labelledby="related-title"><h2 id="related-title">${escaped(labels.related)}</h2><div class="post-grid">`;
    for (const card of related) html += relatedCardHtml(card, box);
    html += "</div></section>";
  }
  return `${html}</div>`;
}
