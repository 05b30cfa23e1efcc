import { readingLabelsFor } from "#app/content/reading-labels.ts";
import { type ShareImageSource, shareImagePath } from "#app/share-image/content.ts";

/**
 * "Download image": the post's 1200×630 share image (the same one link
 * previews show), saved under the post's slug. A plain link: no JavaScript needed.
 */
export function ShareImageLink({
  post,
  className = "share-button",
}: {
  post: ShareImageSource;
  className?: string;
}) {
  return (
    <a href={`${shareImagePath(post)}?download`} download={`${post.slug}.jpg`} className={className}>
      {readingLabelsFor(post.language).downloadImage}
    </a>
  );
}
