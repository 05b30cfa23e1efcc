// The home gallery's tiles, written twice on purpose: as React (the page and
// hydration) and as a string (server/home-page.ts splices a fresh gallery
// into a home rendered once per content version, without React). The two must
// give the same markup: tests/integration/home-fast.test.ts compares the fast
// home with a full render of the same draws, byte for byte.
import { Link } from "react-router";
import type { Gallery } from "#app/content/gallery.ts";
import { siteConfig } from "#app/site.config.ts";
import { PostImage } from "./post-image.tsx";

export function GalleryTiles({ gallery }: { gallery: Gallery }) {
  return gallery.flatMap(({ language, tiles }) =>
    tiles.map((tile) => (
      <li key={tile.href} className="gallery-tile" data-language={language}>
        <Link to={tile.href}>
          <PostImage src={tile.image} alt={tile.title} lang={tile.lang} />
        </Link>
      </li>
    )),
  );
}

/** React's attribute escaping (react-dom/server's escapeTextForBrowser). */
function attribute(value: string): string {
  return value.replace(
    /["'&<>]/g,
    (c) => ({ '"': "&quot;", "'": "&#x27;", "&": "&amp;", "<": "&lt;", ">": "&gt;" })[c] ?? c,
  );
}

/** GalleryTiles as React renders it on the server (a Link in framework mode carries data-discover). */
export function galleryTilesHtml(gallery: Gallery): string {
  const { width, height } = siteConfig.defaultImage;
  let html = "";
  for (const { language, tiles } of gallery) {
    for (const tile of tiles) {
      html +=
        `<li class="gallery-tile" data-language="${language}"><a href="${attribute(tile.href)}" data-discover="true">` +
        `<img src="${attribute(tile.image)}" alt="${attribute(tile.title)}" lang="${attribute(tile.lang)}" width="${width}" height="${height}" loading="lazy" decoding="async" fetchPriority="low"/></a></li>`;
    }
  }
  return html;
}
