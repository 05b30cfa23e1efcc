// Images sized for the box they fill (decision 038): a local feature image is also
// served at narrower widths, /img/{width}/images/…, made on first request and
// kept on disk (app/images/variants.server.ts); `srcset` and `sizes` let
// the browser pick. Isomorphic: the server's render and hydration agree.
/** The widths a variant is made at: a tile on a phone, at 1×, 2× and 3×. */
export const VARIANT_WIDTHS = [160, 320, 480, 640] as const;

/** Local raster images the site serves from public/: the only ones it resizes (no comma: srcset splits on it). */
const LOCAL_RASTER = /^\/images\/[^?#,\s]+\.(?:webp|png|jpe?g)$/i;

export function variantPath(src: string, width: number): string {
  return `/img/${width}${src}`;
}

/**
 * The srcset of an image, or undefined when it is not one the site resizes
 * (SVG, remote); `width` is the original's (the identity's defaultImage.width).
 */
export function imageSrcSet(src: string, width: number): string | undefined {
  if (!LOCAL_RASTER.test(src)) return undefined;
  return [...VARIANT_WIDTHS.map((width) => `${variantPath(src, width)} ${width}w`), `${src} ${width}w`].join(
    ", ",
  );
}

/**
 * The `sizes` of each place an image is shown, from the layout in app/styles/app.css
 * (main: at most 72rem with 1rem padding each side; decision 064). Each says the
 * displayed width at every viewport width or a little more, never less. Phones
 * (below 48rem) have overlay scrollbars: their thresholds are the grid's own. Wider,
 * a column more begins 1rem after the grid's threshold, for a desktop scrollbar
 * (the media queries count it, the grid does not). Checked in Chromium by
 * tests/e2e/image-sizes.test.ts (chosen source ≥ displayed width × DPR).
 */
export const IMAGE_SIZES = {
  /** Home gallery: two tiles a row below 30rem, else three. */
  tile: "(max-width: 29.99rem) calc(50vw - 1.375rem), (max-width: 72rem) calc((100vw - 3.5rem) / 3), 23rem",
  /** Quote of the day: 7rem below 48rem, 10rem wider. */
  daily: "(max-width: 47.99rem) 7rem, 10rem",
  /** The home page's newest post: the whole column below 48rem, then 5 of its 11 parts. */
  hero: "(max-width: 47.99rem) calc(100vw - 2rem), (max-width: 72rem) calc((100vw - 3rem) * 5 / 11), 31.5rem",
  /** A post's own image: at most 32rem wide. */
  post: "(max-width: 34rem) calc(100vw - 2rem), 32rem",
} as const;
export type ImagePlace = keyof typeof IMAGE_SIZES;
