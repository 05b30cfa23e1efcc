import { copyToClipboard, useCopyStatus } from "#app/components/share-actions.tsx";
import { EMBED_WIDTH, embedHeight, embedPath, embedQuote, embedSnippet } from "#app/content/embed.ts";
import { EMBED_LABELS } from "#app/content/embed-labels.ts";
import type { PostView } from "#app/content/post-view.ts";
import type { ReadingLabels } from "#app/content/reading-labels.ts";

/**
 * "Embed" on a post page (decision 063): a disclosure that opens
 * without JavaScript, holding the <iframe> snippet /oembed also gives (select
 * it and copy it by hand); once the page has hydrated, a button copies it.
 */
export function EmbedCode({ post, url, labels }: { post: PostView; url: string; labels: ReadingLabels }) {
  const words = EMBED_LABELS[post.language];
  const { hydrated, status, setStatus } = useCopyStatus();
  const src = `${new URL(url).origin}${embedPath(post.language, post.slug)}`;
  const height = embedHeight(embedQuote(post), EMBED_WIDTH);
  const snippet = embedSnippet(src, post.title, EMBED_WIDTH, height);
  return (
    <details className="embed">
      <summary>{words.embed}</summary>
      <p className="embed-hint">{words.embedHint}</p>
      <textarea
        className="embed-code"
        readOnly
        rows={4}
        aria-label={words.embedCode}
        value={snippet}
        onFocus={(event) => event.currentTarget.select()}
      />
      {hydrated ? (
        <button
          type="button"
          className="share-button"
          onClick={async () => setStatus((await copyToClipboard(snippet)) ? "copied" : "failed")}
        >
          {words.copyCode}
        </button>
      ) : null}
      <p className="embed-status" role="status" aria-live="polite">
        {status === "copied" ? labels.copied : status === "failed" ? labels.copyFailed : ""}
      </p>
    </details>
  );
}
