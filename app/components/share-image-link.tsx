import type { Language } from "#app/content/languages.ts";
import { type ShareImageSource, shareImagePath } from "#app/content/share-image.ts";

const LABEL: Record<Language, string> = {
  english: "Download image",
  hindi: "चित्र डाउनलोड करें",
  marathi: "चित्र डाउनलोड करा",
};

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
      {LABEL[post.language]}
    </a>
  );
}
