import { Link } from "react-router";
import { PostImage } from "#app/components/post-image.tsx";
import type { PostCard as PostCardData } from "#app/content/post-view.ts";

export function PostCard({ post, eager = false }: { post: PostCardData; eager?: boolean }) {
  return (
    <article className="post-card" lang={post.lang}>
      <Link to={post.href} className="post-card-link">
        <PostImage src={post.image} alt="" eager={eager} className="post-card-image" />
        <h2 className="post-card-title">{post.title}</h2>
      </Link>
      <time className="post-card-date" dateTime={post.isoDateTime}>
        {post.postDateTime}
      </time>
    </article>
  );
}

export function PostGrid({ posts, emptyText }: { posts: PostCardData[]; emptyText: string }) {
  if (posts.length === 0) return <p className="empty">{emptyText}</p>;
  return (
    <div className="post-grid">
      {posts.map((post, index) => (
        <PostCard key={post.href} post={post} eager={index < 4} />
      ))}
    </div>
  );
}
