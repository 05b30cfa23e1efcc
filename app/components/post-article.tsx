import { Link } from "react-router";
import { PostImage } from "#app/components/post-image.tsx";
import type { Labels } from "#app/content/labels.ts";
import type { PostView } from "#app/content/post-view.ts";

export function PostArticle({ post, labels }: { post: PostView; labels: Labels }) {
  return (
    <article className="post" lang={post.lang}>
      <h1 className="post-title">{post.title}</h1>
      <p className="post-meta">
        {labels.postedOn} <time dateTime={post.isoDateTime}>{post.postDateTime}</time>
      </p>
      <PostImage src={post.image} alt={post.title} eager className="post-image" />
      {/* Sanitized when stored (app/data/sanitize.server.ts). */}
      <div className="post-content" dangerouslySetInnerHTML={{ __html: post.content }} />
      {post.categories.length > 0 ? (
        <p className="post-terms">
          <span>{labels.categories}:</span>
          {post.categories.map((category) => (
            <Link key={category.href} to={category.href} className="chip">
              {category.name}
            </Link>
          ))}
        </p>
      ) : null}
      {post.tags.length > 0 ? (
        <p className="post-terms">
          <span>{labels.tags}:</span>
          {post.tags.map((tag) => (
            <Link key={tag.href} to={tag.href} className="chip">
              {tag.name}
            </Link>
          ))}
        </p>
      ) : null}
    </article>
  );
}
