import { Link } from "react-router";
import { PostImage } from "#app/components/post-image.tsx";
import { SaveButton, saveQuoteOf } from "#app/components/save-button.tsx";
import { LIST_IMAGE_SIZES, type ListPlace } from "#app/content/list-image-sizes.ts";
import type { PostCard as PostCardData } from "#app/content/post-view.ts";
import { LIST_CARD_SIZE, listCardPath, listCardSrcSet } from "#app/share-image/list-card.ts";

/**
 * A post without an image shows its quote card (decision 064): the light one,
 * or the dark one under a dark scheme, picked by the browser with no script.
 * In a list it is decorative (alt=""), as a post's own image is there: the
 * card's heading says the title right after it, and an alt repeating it is
 * read twice (Lighthouse's "redundant alt" audit).
 */
export function QuoteCardImage({
  post,
  eager,
  sizes,
  className,
  alt,
}: {
  post: Pick<PostCardData, "language" | "slug" | "cardVersion">;
  eager: boolean;
  sizes: string;
  className: string;
  alt: string;
}) {
  const version = post.cardVersion ?? "";
  return (
    <picture>
      <source
        media="(prefers-color-scheme: dark)"
        srcSet={listCardSrcSet(post, version, "dark")}
        sizes={sizes}
        type="image/webp"
      />
      <img
        className={`${className} quote-card-image`}
        src={listCardPath(post, version, "light", LIST_CARD_SIZE)}
        srcSet={listCardSrcSet(post, version, "light")}
        sizes={sizes}
        alt={alt}
        width={LIST_CARD_SIZE}
        height={LIST_CARD_SIZE}
        loading={eager ? "eager" : "lazy"}
        decoding="async"
        fetchPriority={eager ? "high" : "low"}
      />
    </picture>
  );
}

export function PostCard({
  post,
  eager = false,
  headingLevel = 2,
  place = "card",
}: {
  post: PostCardData;
  eager?: boolean;
  headingLevel?: 2 | 3;
  place?: ListPlace;
}) {
  const Heading = headingLevel === 2 ? "h2" : "h3";
  return (
    <article className="post-card" lang={post.lang}>
      <Link to={post.href} className="post-card-link">
        {post.cardVersion ? (
          <QuoteCardImage
            post={post}
            eager={eager}
            sizes={LIST_IMAGE_SIZES[place]}
            className="post-card-image"
            alt=""
          />
        ) : (
          <PostImage
            src={post.image}
            alt=""
            eager={eager}
            className="post-card-image"
            sizes={LIST_IMAGE_SIZES[place]}
          />
        )}
        <Heading className="post-card-title">{post.title}</Heading>
      </Link>
      <time className="post-card-date" dateTime={post.isoDateTime}>
        {post.postDateTime}
      </time>
      {/* In the card's language, as its lang says. */}
      <SaveButton quote={saveQuoteOf(post)} language={post.language} place="card" />
    </article>
  );
}

export function PostGrid({
  posts,
  emptyText,
  headingLevel = 2,
  eagerCount = 4,
  place = "card",
}: {
  posts: PostCardData[];
  emptyText: string;
  headingLevel?: 2 | 3;
  /** Images above the fold load at once; the rest lazily. */
  eagerCount?: number;
  /** "related": the narrower grid under a post. */
  place?: ListPlace;
}) {
  if (posts.length === 0) return <p className="empty">{emptyText}</p>;
  return (
    <div className="post-grid">
      {posts.map((post, index) => (
        <PostCard
          key={post.href}
          post={post}
          eager={index < eagerCount}
          headingLevel={headingLevel}
          place={place}
        />
      ))}
    </div>
  );
}
