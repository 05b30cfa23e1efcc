// The home gallery's tiles, written twice on purpose: as React (the page and
// hydration) and as a string (server/home-page.ts splices a fresh gallery
// into a home rendered once per content version, without React). The two must
// give the same markup: tests/integration/home-fast.test.ts compares the fast
// home with a full render of the same draws, byte for byte.
import { Link } from "react-router";
import type { Gallery } from "#app/content/gallery.ts";
import { IMAGE_SIZES, imageSrcSet } from "#app/content/image-variants.ts";
import { LANG_TAG, LANGUAGE_LABEL } from "#app/content/languages.ts";
import { currentSite } from "#app/site.ts";
import { PostImage } from "./post-image.tsx";

/**
 * One row per language that has tiles, named in its own script, so any count
 * of tiles from 1 to 9 reads as intended. Each tile shows its title under the
 * image (the image keeps the title as its alt text, SPEC §7.2; the caption is
 * hidden from screen readers, which read the alt text).
 */
export function GalleryTiles({ gallery }: { gallery: Gallery }) {
  return gallery
    .filter(({ tiles }) => tiles.length > 0)
    .map(({ language, tiles }) => (
      <section key={language} className="gallery-row" data-language={language}>
        <h3 className="gallery-language" lang={LANG_TAG[language]}>
          {LANGUAGE_LABEL[language]}
        </h3>
        <ul className="gallery-grid">
          {tiles.map((tile) => (
            <li key={tile.href} className="gallery-tile" data-language={language}>
              <Link to={tile.href}>
                <PostImage src={tile.image} alt={tile.title} lang={tile.lang} place="tile" />
                {tile.words ? (
                  <span className="gallery-words" lang={tile.lang} aria-hidden="true">
                    {tile.words}
                  </span>
                ) : null}
                <span className="gallery-caption" lang={tile.lang} aria-hidden="true">
                  {tile.title}
                </span>
              </Link>
            </li>
          ))}
        </ul>
      </section>
    ));
}

/** React's escaping of text and attributes alike (react-dom/server's escapeTextForBrowser). */
function attribute(value: string): string {
  return value.replace(
    /["'&<>]/g,
    (c) => ({ '"': "&quot;", "'": "&#x27;", "&": "&amp;", "<": "&lt;", ">": "&gt;" })[c] ?? c,
  );
}

const text = attribute;

/** PostImage's srcSet and sizes for a tile, as React writes them (nothing for an image without variants). */
function sizedAttributes(src: string, width: number): string {
  const srcSet = imageSrcSet(src, width);
  return srcSet ? ` srcSet="${attribute(srcSet)}" sizes="${attribute(IMAGE_SIZES.tile)}"` : "";
}

/** GalleryTiles as React renders it on the server (a Link in framework mode carries data-discover). */
export function galleryTilesHtml(gallery: Gallery): string {
  // The server's running identity: the root loader gave PostImage the same.
  const { width, height } = currentSite().defaultImage;
  let html = "";
  for (const { language, tiles } of gallery) {
    if (tiles.length === 0) continue;
    html +=
      `<section class="gallery-row" data-language="${language}">` +
      `<h3 class="gallery-language" lang="${LANG_TAG[language]}">${text(LANGUAGE_LABEL[language])}</h3><ul class="gallery-grid">`;
    for (const tile of tiles) {
      html +=
        `<li class="gallery-tile" data-language="${language}"><a href="${attribute(tile.href)}" data-discover="true">` +
        `<img src="${attribute(tile.image)}"${sizedAttributes(tile.image, width)} alt="${attribute(tile.title)}" lang="${attribute(tile.lang)}" width="${width}" height="${height}" loading="lazy" decoding="async" fetchPriority="low"/>` +
        (tile.words
          ? `<span class="gallery-words" lang="${attribute(tile.lang)}" aria-hidden="true">${text(tile.words)}</span>`
          : "") +
        `<span class="gallery-caption" lang="${attribute(tile.lang)}" aria-hidden="true">${text(tile.title)}</span></a></li>`;
    }
    html += "</ul></section>";
  }
  return html;
}
