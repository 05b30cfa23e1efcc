// Images sized for the box they fill (issue 16): a local feature image is also
// served at narrower widths, /img/{width}/images/…, made on first request and
// kept on disk (app/data/image-variants.server.ts); `srcset` and `sizes` let
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

/** The `sizes` of each place an image is shown, from the layout in app/styles/app.css. */
export const IMAGE_SIZES = {
  /** Post cards: two columns on a phone, about 18rem on a wide screen. */
  card: "(max-width: 40rem) 50vw, 18rem",
  /** Home gallery: three tiles a row, in a column of at most 48rem. */
  tile: "(max-width: 48rem) 33vw, 16rem",
  /** Quote of the day: 7rem on a phone, 10rem wider. */
  daily: "(max-width: 40rem) 7rem, 10rem",
  /** The home page's newest post. */
  hero: "(max-width: 48rem) 100vw, 28rem",
  /** A post's own image: at most 32rem wide. */
  post: "(max-width: 32rem) 100vw, 32rem",
} as const;
export type ImagePlace = keyof typeof IMAGE_SIZES;
