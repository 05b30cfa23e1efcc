import { useSite } from "#app/components/use-site.ts";
import { IMAGE_SIZES, type ImagePlace, imageSrcSet } from "#app/content/image-variants.ts";

/**
 * A post's square image; width and height reserve its box so nothing shifts.
 * The page's main image (eager) is fetched first; the others, lazily and at
 * low priority, so on a slow link they wait for it and the fonts.
 */
export function PostImage({
  src,
  alt,
  lang,
  eager = false,
  className,
  place,
  sizes = place ? IMAGE_SIZES[place] : undefined,
}: {
  /** Where it is shown: the widths the browser may pick from (app/content/image-variants.ts). */
  place?: ImagePlace;
  /** Instead of a place: a list's own sizes (app/content/list-image-sizes.ts). */
  sizes?: string;
  src: string;
  alt: string;
  lang?: string;
  eager?: boolean;
  className?: string;
}) {
  const { width, height } = useSite().defaultImage;
  const srcSet = imageSrcSet(src, width);
  return (
    <img
      className={className}
      src={src}
      srcSet={srcSet}
      sizes={srcSet ? sizes : undefined}
      alt={alt}
      lang={lang}
      width={width}
      height={height}
      loading={eager ? "eager" : "lazy"}
      decoding="async"
      fetchPriority={eager ? "high" : "low"}
    />
  );
}
