import { Link } from "react-router";
import { PostImage } from "#app/components/post-image.tsx";
import { SaveButton, saveQuoteOf } from "#app/components/save-button.tsx";
import type { PostCard as PostCardData } from "#app/content/post-view.ts";

export function PostCard({
  post,
  eager = false,
  headingLevel = 2,
}: {
  post: PostCardData;
  eager?: boolean;
  headingLevel?: 2 | 3;
}) {
  const Heading = headingLevel === 2 ? "h2" : "h3";
  return (
    <article className="post-card" lang={post.lang}>
      <Link to={post.href} className="post-card-link">
        <PostImage src={post.image} alt="" eager={eager} className="post-card-image" place="card" />
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
}: {
  posts: PostCardData[];
  emptyText: string;
  headingLevel?: 2 | 3;
  /** Images above the fold load at once; the rest lazily. */
  eagerCount?: number;
}) {
  if (posts.length === 0) return <p className="empty">{emptyText}</p>;
  return (
    <div className="post-grid">
      {posts.map((post, index) => (
        <PostCard key={post.href} post={post} eager={index < eagerCount} headingLevel={headingLevel} />
      ))}
    </div>
  );
}
