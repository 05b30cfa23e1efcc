import { redirect } from "react-router";
import { notFoundResponse } from "#app/content/feeds.ts";
import { isLanguage } from "#app/content/languages.ts";
import { fileCacheContext, storeContext } from "#app/context.ts";
import { getListCard } from "#app/share-image/list-card.server.ts";
import {
  LIST_CARD_SCHEMES,
  LIST_CARD_WIDTHS,
  type ListCardScheme,
  listCardPath,
  listCardVersion,
} from "#app/share-image/list-card.ts";
import type { Route } from "./+types/list-card";

/**
 * /card/{language}/{version}/{scheme}/{width}/{slug}.webp: the quote card a
 * published post without an image shows in lists (decision 064), light or dark, at
 * one of the list widths. The version is a hash of what it shows, so the
 * address is cached for a year; an old version redirects to the current one.
 * Drafts, missing posts and anything else are a plain 404.
 */
export async function loader({ params, context }: Route.LoaderArgs) {
  const { language, version, scheme, width, file } = params;
  const size = Number(width);
  if (
    !isLanguage(language) ||
    !(LIST_CARD_SCHEMES as readonly string[]).includes(scheme) ||
    !/^[1-9][0-9]{2}$/.test(width) ||
    !(LIST_CARD_WIDTHS as readonly number[]).includes(size) ||
    !file.endsWith(".webp")
  )
    throw notFoundResponse();
  // Published posts only: getPost answers null for a draft as for a missing post.
  const post = await context.get(storeContext).getPost(language, file.slice(0, -".webp".length));
  // A post with an image of its own has no card.
  if (post?.featureImageUrl !== "") throw notFoundResponse();
  const current = listCardVersion(post);
  if (version !== current) {
    throw redirect(listCardPath(post, current, scheme as ListCardScheme, size), {
      status: 302,
      headers: { "Cache-Control": "public, max-age=300" },
    });
  }
  const webp = await getListCard(
    post,
    scheme as ListCardScheme,
    size,
    context.get(fileCacheContext).shareImages,
  );
  return new Response(new Uint8Array(webp), {
    headers: {
      "Content-Type": "image/webp",
      "Content-Length": String(webp.length),
      "Cache-Control": "public, max-age=31536000, immutable",
    },
  });
}
