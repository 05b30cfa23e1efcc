import { Link } from "react-router";
import { EmbedCode } from "#app/components/embed-code.tsx";
import { PostListen } from "#app/components/listen.tsx";
import { PostGrid } from "#app/components/post-card.tsx";
import { PostImage } from "#app/components/post-image.tsx";
import { RomanLetters } from "#app/components/roman-letters.tsx";
import { SaveButton, saveQuoteOf } from "#app/components/save-button.tsx";
import { ShareActions } from "#app/components/share-actions.tsx";
import { ShareImageLink } from "#app/components/share-image-link.tsx";
import { htmlToText } from "#app/content/html-text.ts";
import type { PostCard, PostView } from "#app/content/post-view.ts";
import type { ReadingLabels } from "#app/content/reading-labels.ts";
import type { RomanQuote } from "#app/content/roman-letters.ts";

export interface PostArticleProps {
  post: PostView;
  labels: ReadingLabels;
  url: string;
  previous: PostCard | null;
  next: PostCard | null;
  related: PostCard[];
  /** The quote in Roman letters, under a toggle (Hindi and Marathi posts). */
  roman?: RomanQuote | null;
}

export function PostArticle({ post, labels, url, previous, next, related, roman }: PostArticleProps) {
  // What Listen reads and Copy text copies.
  const text = htmlToText(post.content);
  return (
    <div className="post-layout" lang={post.lang}>
      <article className="post">
        <h1 className="post-title">{post.title}</h1>
        <p className="post-meta">
          {labels.postedOn} <time dateTime={post.isoDateTime}>{post.postDateTime}</time>
        </p>
        <SaveButton
          quote={saveQuoteOf(post)}
          language={post.language}
          place="post"
          pageLanguage={post.language}
        />
        {/* A post without an image of its own leads with its text: the quote is what the page is for. */}
        {post.hasOwnImage ? (
          <PostImage src={post.image} alt={post.title} eager className="post-image" place="post" />
        ) : null}
        {/* biome-ignore lint/security/noDangerouslySetInnerHtml: post HTML, sanitized by the writer before it is stored (app/data/sanitize.server.ts). */}
        <div className="post-content" dangerouslySetInnerHTML={{ __html: post.content }} />
        {post.source ? (
          <p className="post-source">
            {"— "}
            {post.source.person ? <Link to={post.source.person.href}>{post.source.person.name}</Link> : null}
            {post.source.person && post.source.work ? ", " : null}
            {post.source.work ? <cite>{post.source.work}</cite> : null}
            {(post.source.person || post.source.work) && post.source.reference ? ", " : null}
            {post.source.reference}
          </p>
        ) : null}
        {roman ? <RomanLetters roman={roman} labels={labels} /> : null}
        <PostListen
          // A new post is a new reading: the old one stops (its cleanup cancels the speech).
          key={post.href}
          title={post.title}
          text={text}
          audio={post.audio}
          language={post.language}
          labels={labels}
        />
        {post.translations.length > 0 ? (
          <p className="post-translations">
            <span>{labels.readIn}:</span>
            {post.translations.map((translation) => (
              <Link
                key={translation.href}
                to={translation.href}
                lang={translation.lang}
                hrefLang={translation.lang}
                title={translation.title}
                className="chip"
              >
                {translation.label}
              </Link>
            ))}
          </p>
        ) : null}
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
        <ShareActions
          url={url}
          title={post.title}
          text={post.source ? `${text}\n— ${post.source.line}` : text}
          byline={post.source?.person?.name ?? ""}
          labels={labels}
          download={<ShareImageLink post={post} />}
        />
        <EmbedCode post={post} url={url} labels={labels} />
      </article>

      {previous || next ? (
        <nav className="post-nav" aria-label={`${labels.previousPost} / ${labels.nextPost}`}>
          {previous ? (
            <Link to={previous.href} rel="prev" className="post-nav-link post-nav-previous">
              <span className="post-nav-label">← {labels.previousPost}</span>
              <span className="post-nav-title">{previous.title}</span>
            </Link>
          ) : (
            <span />
          )}
          {next ? (
            <Link to={next.href} rel="next" className="post-nav-link post-nav-next">
              <span className="post-nav-label">{labels.nextPost} →</span>
              <span className="post-nav-title">{next.title}</span>
            </Link>
          ) : (
            <span />
          )}
        </nav>
      ) : null}

      {related.length > 0 ? (
        <section className="related" aria-labelledby="related-title">
          <h2 id="related-title">{labels.related}</h2>
          <PostGrid posts={related} emptyText="" headingLevel={3} eagerCount={0} place="related" />
        </section>
      ) : null}
    </div>
  );
}
