// The home gallery's tiles, written twice on purpose: as React (the page and
// hydration) and as a string (server/home-page.ts splices a fresh gallery
// into a home rendered once per content version, without React). The two must
// give the same markup: tests/integration/home-fast.test.ts compares the fast
// home with a full render of the same draws, byte for byte.
import { Link } from "react-router";
import type { Gallery } from "#app/content/gallery.ts";
import { IMAGE_SIZES } from "#app/content/image-variants.ts";
import { LANG_TAG, LANGUAGE_LABEL } from "#app/content/languages.ts";
import { currentSite } from "#app/site.ts";
import { PostImage } from "./post-image.tsx";
import { escaped, linkOpen, postImageHtml } from "./react-markup.ts";

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

/** GalleryTiles as React renders it on the server (a Link in framework mode carries data-discover). */
export function galleryTilesHtml(gallery: Gallery): string {
  // The server's running identity: the root loader gave PostImage the same.
  const { width, height } = currentSite().defaultImage;
  let html = "";
  for (const { language, tiles } of gallery) {
    if (tiles.length === 0) continue;
    html +=
      `<section class="gallery-row" data-language="${language}">` +
      `<h3 class="gallery-language" lang="${LANG_TAG[language]}">${escaped(LANGUAGE_LABEL[language])}</h3><ul class="gallery-grid">`;
    for (const tile of tiles) {
      html +=
        `<li class="gallery-tile" data-language="${language}">${linkOpen(tile.href)}` +
        postImageHtml({
          src: tile.image,
          alt: tile.title,
          lang: tile.lang,
          sizes: IMAGE_SIZES.tile,
          width,
          height,
        }) +
        (tile.words
          ? `<span class="gallery-words" lang="${escaped(tile.lang)}" aria-hidden="true">${escaped(tile.words)}</span>`
          : "") +
        `<span class="gallery-caption" lang="${escaped(tile.lang)}" aria-hidden="true">${escaped(tile.title)}</span></a></li>`;
    }
    html += "</ul></section>";
  }
  return html;
}
